import AppState
import Foundation
import Locking
import Testing
import TestSupport

/// `.value` never throws: a failure falls back to the initial value (reads) or keeps the change in
/// memory (writes), is logged, and reaches the failure observers.
@Suite struct NonThrowingAccessTests {
    @Test func anUnreadableFileFallsBackToTheInitialValueAndIsReportedOnce() throws {
        let watched = try WatchedApplication()
        let (app, log) = (watched.app, watched.log)

        let notes = app.fileState(initial: ["initial"], id: "notes")
        try FileManager.default.createDirectory(at: notes.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: notes.fileURL)

        #expect(notes.value == ["initial"])
        #expect(notes.value == ["initial"])
        #expect(throws: AppStateError.self) { try notes.read() }
        let reported = watched.failures
        #expect(reported.count == 1, "the same failure is reported once: \(reported)")
        #expect(reported.first?.key == "notes")
        #expect(reported.first?.operation == .read)
        #expect(reported.first?.error.code == .decodingFailed, "reported \(String(describing: reported.first?.error)), not a decoding failure")
        let errors = log.lines.filter { $0.hasPrefix("error ") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("reading file state 'notes' failed, so its initial value stands in") == true, "\(errors)")

        // Writing repairs it: the write succeeds and the key's next failure is reported again.
        notes.value = ["repaired"]
        #expect(try notes.read() == ["repaired"])
        try Data("{ broken again".utf8).write(to: notes.fileURL)
        try app.containerDidSwitch() // forget what was read, as a switch does
        #expect(notes.value == ["initial"])
        #expect(watched.failures.count == 2)
    }

    @Test func aWriteThatCannotBeSavedIsKeptInMemoryAndReported() throws {
        let watched = try WatchedApplication()
        let (app, log) = (watched.app, watched.log)
        let changes = Locked<[[String]]>([])

        let notes = app.fileState(initial: [String](), id: "notes")
        let changeObservation = notes.observe { change in changes.withLock { $0.append(change.newValue) } }
        defer { changeObservation.cancel() }
        // The state folder cannot be made: a file stands where it should be.
        try FileManager.default.createDirectory(
            at: app.fileStateFolder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: app.fileStateFolder)

        #expect(throws: AppStateError.self) { try notes.setValue(["thrown"]) }
        #expect(throws: AppStateError.self) { try notes.read() }
        #expect(notes.value == [], "a failed throwing write changes nothing; the unreadable file reads as the initial value")
        notes.value = ["kept"]
        #expect(notes.value == ["kept"], "the change is kept in memory")
        #expect(changes.withLock { $0 } == [["kept"]], "observers hear of the kept change")
        #expect(watched.failures.map(\.operation) == [.read, .write])
        #expect(log.lines.contains { $0.contains("writing file state 'notes' failed, so the new value is kept in memory only") })

        // Once the state can be saved again, an update starts from what the reads saw, and saving
        // forgets the kept value.
        try FileManager.default.removeItem(at: app.fileStateFolder)
        try notes.update { $0.append("updated") }
        #expect(try notes.read() == ["kept", "updated"])
        #expect(notes.value == ["kept", "updated"])
        notes.value = ["saved"]
        #expect(try notes.read() == ["saved"])
        try notes.reset()
        #expect(notes.value == [])
    }

    @Test func aMissingSecureKeyFallsBackAndKeepsChangesInMemory() throws {
        // This run of the app has no key: a sealed value cannot be opened, nor a new one sealed.
        let watched = try WatchedApplication()
        let (app, log) = (watched.app, watched.log)
        // An earlier run had its key and sealed a token.
        let withKey = Application(
            home: app.home, appID: app.appID, secureKey: .keyFile(watched.folder.url.appendingPathComponent("app.key")))
        withKey.secureState(initial: "none", id: "token").value = "sealed"

        let token = app.secureState(initial: "none", id: "token")
        #expect(token.value == "none")
        token.value = "in memory"
        #expect(token.value == "in memory")
        #expect(throws: AppStateError.self) { try token.read() }
        let reported = watched.failures
        #expect(reported.map(\.operation) == [.read, .write])
        #expect(reported.allSatisfy { $0.error.code == .secureKeyMissing }, "\(reported)")
        #expect(log.lines.filter { $0.hasPrefix("error ") && $0.contains("'token'") }.count == 2)
        #expect(try withKey.secureState(initial: "none", id: "token").read() == "sealed", "the sealed file is untouched")
    }
}

/// An application over a fresh home (with no secure key) whose failures are logged to ``log`` and
/// collected in ``failures``.
final class WatchedApplication {
    let folder: TemporaryFolder
    let log = CapturedLog()
    let app: Application
    private let collected = Locked<[StateFailure]>([])
    private var observation: StateObservation?

    init(_ label: String = #function) throws {
        folder = try TemporaryFolder(label)
        app = Application(home: folder.url.appendingPathComponent("home"), appID: "com.example.failures", logger: log.logger)
        let collected = collected
        observation = app.observeFailures { failure in collected.withLock { $0.append(failure) } }
    }

    /// The failures reported so far.
    var failures: [StateFailure] { collected.withLock { $0 } }

    deinit {
        observation?.cancel()
        folder.remove()
    }
}
