import AppState
import Foundation
import Preferences
import Testing
import TestSupport

/// A stored state keeps the value it read while its preferences are unchanged (issue #11, item 12), and
/// reads again after any change of them: by itself, by the store directly, by another process adopted
/// through a flush, by a reload.
@Suite struct StoredReadTests {
    struct Profile: Codable, Equatable {
        var name: String
        var visits: Int
    }

    @Test func readsFollowEveryWriterOfTheStore() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let count = try app.storedState("count", initial: 0)
        #expect(try count.read() == 0)
        try count.setValue(1)
        #expect(try count.read() == 1)
        try app.preferences.set(.int(2), forKey: "count")
        #expect(try count.read() == 2, "a write to the store directly is seen")
        try app.preferences.set(.int(3), forKey: "other")
        #expect(try count.read() == 2, "a write to another key changes nothing")
        try app.preferences.removeValue(forKey: "count")
        #expect(try count.read() == 0, "a removal gives the initial value back")

        try app.flush()  // so the removal is not pending, to win over the other writer below
        let otherProcess = PreferencesStore(home: folder.url, appID: "app")
        try otherProcess.set(.int(7), forKey: "count")
        try otherProcess.flush()
        #expect(try count.read() == 0, "not adopted yet")
        try app.synchronizeWithDisk()
        #expect(try count.read() == 7, "adopted by a flush")

        try otherProcess.set(.int(8), forKey: "count")
        try otherProcess.flush()
        try app.preferences.reload()
        #expect(try count.read() == 8, "read again after a reload")
    }

    @Test func codableValuesAndHandlesOfOneKeyAgree() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let profile = try app.storedState("profile", initial: Profile(name: "guest", visits: 0))
        let again = try app.storedState("profile", initial: Profile(name: "ignored", visits: 9))
        try profile.setValue(Profile(name: "ada", visits: 1))
        #expect(try again.read() == Profile(name: "ada", visits: 1))
        #expect(try app.preferences.value(forKey: "profile") == ["name": "ada", "visits": 1])
        try again.update { $0.visits += 1 }
        #expect(try profile.read().visits == 2)
        try app.preferences.set(["name": "bob", "visits": 5], forKey: "profile")
        #expect(try profile.read() == Profile(name: "bob", visits: 5))
    }

    @Test func aValueThatNoLongerDecodesFailsEveryRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let count = try app.storedState("count", initial: 0)
        try count.setValue(4)
        #expect(try count.read() == 4)
        try app.preferences.set(.string("four"), forKey: "count")
        #expect(throws: AppStateError.self) { try count.read() }
        #expect(throws: AppStateError.self) { try count.read() }
        try app.preferences.set(.int(5), forKey: "count")
        #expect(try count.read() == 5)
    }

    /// Tasks writing and reading at once: every read gives a value some task wrote, and the last
    /// read agrees with the store.
    @Test func readsDuringWritesGiveWrittenValues() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = Application(home: folder.url, appID: "app")
        let count = try app.storedState("count", initial: 0)
        let strays = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 1...8 {
                group.addTask {
                    for index in 1...500 {
                        try count.setValue(task * 10_000 + index)
                        let read = try count.read()
                        if read < 10_001 || read > 80_500 || read % 10_000 > 500 { strays.next() }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(strays.value == 0)
        #expect(try app.preferences.value(forKey: "count") == .int(try count.read()))
    }
}
