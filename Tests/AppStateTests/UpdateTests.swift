import Foundation
import Testing
@testable import AppState
import TestSupport

/// `update` is all or nothing: a body that throws leaves every kind of state as it was.
@Suite struct UpdateTests {
    struct Failure: Error {}

    @Test func aFailingUpdateChangesNothing() throws {
        let containers = try SimulatedContainers()
        defer { containers.remove() }
        let app = containers.makeApplication()
        let memory = try app.state("memory", initial: [1])
        let stored = try app.storedState("stored", initial: [1])
        let file = try app.fileState("file", initial: [1])
        let secure = try app.secureState("secure", initial: [1])
        let heard = Counter()
        let observation = app.observe { _ in heard.next() }

        #expect(throws: Failure.self) { try memory.update { value throws(Failure) in value.append(2); throw Failure() } }
        #expect(throws: Failure.self) { try stored.update { value in value.append(2); throw Failure() } }
        #expect(throws: Failure.self) { try file.update { value in value.append(2); throw Failure() } }
        #expect(throws: Failure.self) { try secure.update { value in value.append(2); throw Failure() } }
        withExtendedLifetime(observation) {}

        #expect(memory.value == [1])
        #expect(try stored.read() == [1])
        #expect(try file.read() == [1])
        #expect(try secure.read() == [1])
        #expect(!FileManager.default.fileExists(atPath: file.fileURL.path))
        #expect(heard.value == 0)
    }

    @Test func updateReturnsWhatTheBodyReturns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let queue = try app.storedState("queue", initial: ["a", "b"])
        let first = try queue.update { $0.removeFirst() }
        #expect(first == "a")
        #expect(try queue.read() == ["b"])
    }

    @Test func flushWritesStoredStateWithoutASwitch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        try app.storedState("launches", initial: 0).setValue(3)
        #expect(app.preferences.hasUnflushedChanges)
        try app.flush()
        #expect(try Application(home: folder.url, appID: "app").storedState("launches", initial: 0).read() == 3)
    }
}
