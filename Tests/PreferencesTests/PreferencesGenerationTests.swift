import Foundation
import Testing
import Preferences
import TestSupport

/// The store's generation changes with every change of its values and only then, so a reader that kept
/// what it made of a value can trust it while the generation stays.
@Suite struct PreferencesGenerationTests {
    @Test func advancesWithEveryChangeAndOnlyThen() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try store.set(1, forKey: "a")
        let afterSet = store.generation
        #expect(try store.valueAndGeneration(forKey: "a") == (.int(1), afterSet))
        #expect(try store.value(forKey: "b") == nil)
        #expect(store.generation == afterSet, "reads change nothing")
        try store.set(1, forKey: "a")
        #expect(store.generation == afterSet, "setting the value already there changes nothing")
        try store.set(2, forKey: "b")
        #expect(store.generation > afterSet)
        let beforeRemoval = store.generation
        try store.removeValue(forKey: "b")
        #expect(store.generation > beforeRemoval)
        let beforeUpdate = store.generation
        try store.update { $0["c"] = "x" }
        #expect(store.generation > beforeUpdate)
        let beforeReload = store.generation
        try store.reload()
        #expect(store.generation > beforeReload)
    }

    @Test func advancesWhenAFlushAdoptsAnotherWritersChanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mine = PreferencesStore(home: folder.url, appID: "app")
        let theirs = PreferencesStore(home: folder.url, appID: "app")
        try mine.set(1, forKey: "mine")
        try mine.flush()
        try theirs.set(2, forKey: "theirs")
        try theirs.flush()
        let before = mine.generation
        #expect(try mine.valueAndGeneration(forKey: "theirs") == (nil, before))
        try mine.synchronize()
        #expect(try mine.valueAndGeneration(forKey: "theirs") == (.int(2), mine.generation))
        #expect(mine.generation > before)
    }

    @Test func settingOneKeyKeepsTheOthersAndWritesOnlyItself() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mine = PreferencesStore(home: folder.url, appID: "app")
        let theirs = PreferencesStore(home: folder.url, appID: "app")
        try mine.set(["x": 1], forKey: "shared")
        try mine.set(1, forKey: "kept")
        try mine.flush()
        try theirs.set(2, forKey: "kept")
        try theirs.flush()
        try mine.set(["x": 2], forKey: "shared")
        #expect(mine.hasUnflushedChanges)
        try mine.flush()
        let reread = PreferencesStore(home: folder.url, appID: "app")
        #expect(try reread.dictionaryRepresentation() == ["shared": ["x": 2], "kept": 2])
    }

    @Test func observerListsKnowWhetherAnyoneListens() {
        let list = ObserverList<Int>()
        #expect(list.isEmpty)
        let first = list.add { _ in }
        var second: PreferencesObservation? = list.add { _ in }
        #expect(!list.isEmpty)
        first.cancel()
        #expect(!list.isEmpty)
        second = nil
        #expect(list.isEmpty)
        _ = second
    }
}
