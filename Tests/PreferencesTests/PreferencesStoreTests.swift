import Foundation
import Synchronization
import Testing
@testable import Preferences
import TestSupport
import Locking

@Suite struct PreferencesStoreTests {
    struct Profile: Codable, Equatable {
        var name: String
        var age: Int
        var tags: [String]
    }

    @Test func pathFollowsTheHomeAndAppID() {
        let url = PreferencesStore.fileURL(home: URL(fileURLWithPath: "/h"), appID: "com.example.app")
        #expect(url.path == "/h/Library/Preferences/com.example.app.plist")
    }

    @Test func everyValueTypeRoundTripsThroughTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let values: [String: PreferenceValue] = [
            "bool": true, "int": 42, "double": 1.0, "string": "hé", "data": .data(Data([0, 1, 255])),
            "date": .date(Date(timeIntervalSince1970: 1_700_000_000.5)),
            "array": [1, "two", false], "dictionary": ["nested": ["deep": 3.5]],
        ]
        let store = PreferencesStore(home: folder.url, appID: "app")
        for (key, value) in values { try store.set(value, forKey: key) }
        try store.flush()

        let reread = PreferencesStore(home: folder.url, appID: "app")
        #expect(try reread.dictionaryRepresentation() == values)
    }

    @Test func readsAreStrictlyTyped() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try store.set(1, forKey: "one")
        try store.set(true, forKey: "yes")
        try store.set(2.0, forKey: "two")
        try store.flush()
        let reread = PreferencesStore(home: folder.url, appID: "app")
        #expect(try reread.bool(forKey: "one") == nil)
        #expect(try reread.int(forKey: "one") == 1)
        #expect(try reread.int(forKey: "yes") == nil)
        #expect(try reread.bool(forKey: "yes") == true)
        #expect(try reread.value(forKey: "two") == .double(2.0))
        #expect(try reread.int(forKey: "two") == nil)
        #expect(try reread.double(forKey: "one") == 1.0)
    }

    @Test func codableValuesUseThePropertyListCoders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let profile = Profile(name: "Ada", age: 36, tags: ["a", "b"])
        try store.set(encoding: profile, forKey: "profile")
        try store.set(encoding: 7, forKey: "scalar")
        try store.flush()
        let reread = PreferencesStore(home: folder.url, appID: "app")
        #expect(try reread.decode(Profile.self, forKey: "profile") == profile)
        #expect(try reread.decode(Int.self, forKey: "scalar") == 7)
        #expect(try reread.decode(Profile.self, forKey: "missing") == nil)
        #expect(throws: PreferencesError.self) { try reread.decode(Profile.self, forKey: "scalar") }
    }

    @Test func changesWaitForFlushUnlessSynchronous() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let deferred = PreferencesStore(home: folder.url, appID: "deferred")
        try deferred.set("v", forKey: "k")
        #expect(deferred.hasUnflushedChanges)
        #expect(!FileManager.default.fileExists(atPath: deferred.fileURL.path))
        try deferred.flush()
        #expect(!deferred.hasUnflushedChanges)
        #expect(try PreferencesStore(fileURL: deferred.fileURL).string(forKey: "k") == "v")

        let synchronous = PreferencesStore(home: folder.url, appID: "sync", synchronous: true)
        try synchronous.set("now", forKey: "k")
        #expect(!synchronous.hasUnflushedChanges)
        #expect(try PreferencesStore(fileURL: synchronous.fileURL).string(forKey: "k") == "now")
    }

    @Test func flushLeavesNoTemporaryFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        for index in 0..<20 {
            try store.set(.int(index), forKey: "k")
            try store.flush()
        }
        let names = try FileManager.default.contentsOfDirectory(
            atPath: store.fileURL.deletingLastPathComponent().path)
        #expect(names == ["app.plist"])
    }

    @Test func aConcurrentReaderNeverSeesAHalfWrittenFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let fileURL = store.fileURL
        let writes = 150
        let done = Atomic<Bool>(false)

        // The reader decodes the file as fast as it can while it is rewritten; every version it sees must
        // be whole: the payload always matches its generation.
        let reader = Task.detached { () -> (reads: Int, bad: [String]) in
            var reads = 0
            var bad: [String] = []
            while !done.load(ordering: .acquiring) || reads == 0 {
                guard let data = try? Data(contentsOf: fileURL) else { continue }
                reads += 1
                do {
                    let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                    guard let dictionary = object as? [String: Any], let generation = dictionary["generation"] as? Int,
                          let payload = dictionary["payload"] as? String
                    else {
                        bad.append("unexpected shape")
                        continue
                    }
                    if payload != String(repeating: "\(generation % 10)", count: 100_000) {
                        bad.append("payload of generation \(generation) does not match")
                    }
                } catch {
                    bad.append("undecodable: \(error)")
                }
            }
            return (reads, bad)
        }
        for generation in 0..<writes {
            try store.update { values in
                values["generation"] = .int(generation)
                values["payload"] = .string(String(repeating: "\(generation % 10)", count: 100_000))
            }
            try store.flush()
        }
        done.store(true, ordering: .releasing)
        let result = await reader.value
        #expect(result.reads > 0)
        #expect(result.bad.isEmpty, "\(result.bad.prefix(3))")
    }

    @Test func reloadSeesTheFileChangedUnderneathAndNotifies() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try store.set("a", forKey: "name")
        try store.set(1, forKey: "kept")
        try store.flush()

        let other = PreferencesStore(home: folder.url, appID: "app")
        try other.set("b", forKey: "name")
        try other.set(true, forKey: "added")
        try other.flush()

        let changes = Locked<[PreferenceChange]>([])
        let observation = store.observe { change in changes.withLock { $0.append(change) } }
        #expect(try store.string(forKey: "name") == "a")
        try store.reload()
        #expect(try store.string(forKey: "name") == "b")
        #expect(try store.bool(forKey: "added") == true)
        let seen = changes.withLock { $0 }
        #expect(seen.map(\.key) == ["added", "name"])
        #expect(seen.allSatisfy { $0.reason == .reload })
        #expect(seen.last?.oldValue == "a" && seen.last?.newValue == "b")
        observation.cancel()
    }

    @Test func reloadFollowsAFileSwappedByRename() throws {
        // What a container switch does: the live file is renamed away and another moved into its place.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try store.set("A", forKey: "container")
        try store.flush()

        let stash = folder.url.appendingPathComponent("stash-A.plist")
        try FileManager.default.moveItem(at: store.fileURL, to: stash)
        try store.reload()
        #expect(try store.string(forKey: "container") == nil)
        try store.set("B", forKey: "container")
        try store.flush()

        try FileManager.default.removeItem(at: store.fileURL)
        try FileManager.default.moveItem(at: stash, to: store.fileURL)
        try store.reload()
        #expect(try store.string(forKey: "container") == "A")
    }

    @Test func aCorruptFileIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try FileManager.default.createDirectory(
            at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("garbage{".utf8).write(to: store.fileURL)

        let error = #expect(throws: PreferencesError.self) { try store.value(forKey: "k") }
        guard case .corruptFile(let path, _) = error?.reason else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        #expect(path == store.fileURL.path)
        #expect("\(error!)".contains("app.plist"))
        #expect(throws: PreferencesError.self) { try store.set(1, forKey: "k") }

        let array = try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0)
        try array.write(to: store.fileURL)
        let arrayError = #expect(throws: PreferencesError.self) { try store.reload() }
        #expect("\(arrayError!)".contains("expected a dictionary"))
        // A failed reload drops the old values instead of serving them.
        #expect(throws: PreferencesError.self) { try store.value(forKey: "k") }
    }

    @Test func aFailedReloadDoesNotServeThePreviousFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try store.set("old", forKey: "k")
        try store.flush()
        try Data("not a plist".utf8).write(to: store.fileURL)
        #expect(throws: PreferencesError.self) { try store.reload() }
        #expect(throws: PreferencesError.self) { try store.value(forKey: "k") }
        try FileManager.default.removeItem(at: store.fileURL)
        try store.reload()
        #expect(try store.value(forKey: "k") == nil)
    }

    @Test func manyTasksWriteAndReadConcurrently() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<32 {
                group.addTask {
                    for index in 0..<50 {
                        try store.set(.int(index), forKey: "t\(task)-\(index)")
                        try store.update { values in
                            values["counter"] = .int((values["counter"]?.intValue ?? 0) + 1)
                        }
                        _ = try store.value(forKey: "t\(task)-\(index)")
                        if index % 10 == 0 { try store.flush() }
                    }
                }
            }
            try await group.waitForAll()
        }
        try store.flush()
        let reread = PreferencesStore(home: folder.url, appID: "app")
        let values = try reread.dictionaryRepresentation()
        #expect(values.count == 32 * 50 + 1)
        #expect(values["counter"] == .int(32 * 50))
    }

    @Test func observersHearChangesOfTheirKeyUntilCancelled() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let heard = Locked<[PreferenceChange]>([])
        let observation = store.observe(key: "watched") { change in heard.withLock { $0.append(change) } }
        try store.set(1, forKey: "watched")
        try store.set(2, forKey: "other")
        try store.set(1, forKey: "watched")  // unchanged: no notification
        try store.removeValue(forKey: "watched")
        observation.cancel()
        try store.set(3, forKey: "watched")
        let changes = heard.withLock { $0 }
        #expect(changes.count == 2)
        #expect(changes.first?.newValue == 1)
        #expect(changes.last?.newValue == nil && changes.last?.oldValue == 1)
    }

    @Test func anObserverMayWriteToTheStore() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let observation = store.observe(key: "source") { change in
            try? store.set(change.newValue, forKey: "mirror")
        }
        try store.set("x", forKey: "source")
        #expect(try store.string(forKey: "mirror") == "x")
        _ = observation
    }

    @Test func droppingTheObservationRemovesTheObserver() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let count = Atomic<Int>(0)
        do {
            let observation = store.observe { _ in count.add(1, ordering: .relaxed) }
            try store.set(1, forKey: "k")
            _ = observation
        }
        try store.set(2, forKey: "k")
        #expect(count.load(ordering: .relaxed) == 1)
    }
}

/// Observers of one key and of every key, kept apart by the store.
@Suite struct KeyedObserverTests {
    @Test func eachObserverHearsOnlyItsKeyAndAnObserverOfEveryKeyHearsAll() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let heard = Locked<[String]>([])
        let observations = ["a", "b", "c"].map { (key: String) in
            store.observe(key: key) { change in heard.withLock { $0.append("\(key):\(change.key)") } }
        }
        let everyKey = store.observe { change in heard.withLock { $0.append("*:\(change.key)") } }
        try store.set(1, forKey: "a")
        try store.set(1, forKey: "c")
        try store.set(1, forKey: "unobserved")
        #expect(heard.withLock { $0 } == ["a:a", "*:a", "c:c", "*:c", "*:unobserved"])
        _ = (observations, everyKey)
    }

    @Test func cancellingOneObserverOfAKeyLeavesTheOthers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let heard = Locked<[String]>([])
        let first = store.observe(key: "k") { _ in heard.withLock { $0.append("first") } }
        let second = store.observe(key: "k") { _ in heard.withLock { $0.append("second") } }
        first.cancel()
        try store.set(1, forKey: "k")
        second.cancel()
        try store.set(2, forKey: "k")
        let third = store.observe(key: "k") { _ in heard.withLock { $0.append("third") } }
        try store.set(3, forKey: "k")
        #expect(heard.withLock { $0 } == ["second", "third"])
        _ = third
    }

    @Test func anObserverMayEndAnotherObservationOfTheSameStore() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let other = Locked<PreferencesObservation?>(store.observe(key: "k") { _ in })
        let observation = store.observe(key: "k") { _ in
            let ending = other.withLock { observation in
                defer { observation = nil }
                return observation
            }
            ending?.cancel()
        }
        try store.set(1, forKey: "k")
        try store.set(2, forKey: "k")
        #expect(other.withLock { $0 == nil })
        _ = observation
    }
}

/// Keys held with `PreferencesStore.key(_:)`: one observer list per key, shared with observers by name.
@Suite struct HeldKeyTests {
    @Test func changesThroughAHeldKeyAndByNameReachTheSameObservers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let key = store.key("k")
        let heard = Locked<[String]>([])
        let byName = store.observe(key: "k") { change in heard.withLock { $0.append("name:\(change.newValue!)") } }
        let byKey = store.observe(key) { change in heard.withLock { $0.append("held:\(change.newValue!)") } }
        let everyKey = store.observe { change in heard.withLock { $0.append("*:\(change.newValue!)") } }
        try store.set(1, for: key)
        try store.set(2, forKey: "k")
        try store.set(3, forKey: "other")
        #expect(heard.withLock { $0 } == [
            "name:1", "held:1", "*:1", "name:2", "held:2", "*:2", "*:3",
        ])
        #expect(try store.int(forKey: "k") == 2)
        _ = (byName, byKey, everyKey)
    }

    @Test func theListOutlivesAnyOneOfItsUsers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let heard = Locked<[Int]>([])
        var key: PreferencesStore.Key? = store.key("k")
        // The observation by name is made after the key and outlives it; the key's writes reach it, and
        // once the key is gone, writes by name still do.
        let observation = store.observe(key: "k") { change in heard.withLock { $0.append(change.newValue!.intValue!) } }
        try store.set(1, for: key!)
        key = nil
        try store.set(2, forKey: "k")
        // A key made after every earlier user has gone gets a fresh list that a new observer shares.
        observation.cancel()
        let again = store.key("k")
        let later = store.observe(key: "k") { change in heard.withLock { $0.append(10 * change.newValue!.intValue!) } }
        try store.set(3, for: again)
        #expect(heard.withLock { $0 } == [1, 2, 30])
        _ = later
    }

    @Test func anObservationOfAHeldKeyKeepsHearingAfterTheKeyIsDropped() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let count = Atomic<Int>(0)
        let observation = store.observe(store.key("k")) { _ in count.add(1, ordering: .relaxed) }
        try store.set(1, forKey: "k")
        observation.cancel()
        try store.set(2, forKey: "k")
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test func manyThreadsMakeAndDropKeysWhileOthersWrite() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let heard = Atomic<Int>(0)
        let steady = store.observe(key: "k") { _ in heard.add(1, ordering: .relaxed) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        let key = store.key("k")
                        let observation = store.observe(key) { _ in }
                        try store.set(.int(task * 1000 + index), for: key)
                        observation.cancel()
                    }
                }
            }
            try await group.waitForAll()
        }
        // Every write changed the value (each is unique), and the steady observer heard each one.
        #expect(heard.load(ordering: .relaxed) == 8 * 200)
        _ = steady
    }
}
