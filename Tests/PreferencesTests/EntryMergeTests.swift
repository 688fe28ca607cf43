import Foundation
import Testing
import Preferences
import TestSupport

/// Keys that merge entry by entry (``PreferencesStore/mergeEntries(ofKey:depth:)``): two writers of
/// different entries both keep theirs, and a writer's later change of an entry always wins over its
/// earlier ones, whatever order the pending changes are kept in.
@Suite struct EntryMergeTests {
    private func store(_ folder: TemporaryFolder) -> PreferencesStore {
        let store = PreferencesStore(home: folder.url, appID: "app")
        store.mergeEntries(ofKey: "overrides", depth: 2)
        return store
    }

    private func dictionary(_ entries: [String: PreferenceValue]) -> PreferenceValue { .dictionary(entries) }

    @Test func twoWritersOfDifferentEntriesBothKeepTheirs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = store(folder), second = store(folder)
        // Both read the file before either writes, as two processes would.
        _ = try first.value(forKey: "overrides")
        _ = try second.value(forKey: "overrides")
        try first.set(dictionary(["search": dictionary(["enabled": .bool(true)])]), forKey: "overrides")
        try second.set(dictionary(["login": dictionary(["style": .string("new")])]), forKey: "overrides")
        try first.flush()
        try second.flush()
        let reader = store(folder)
        #expect(try reader.value(forKey: "overrides") == dictionary([
            "search": dictionary(["enabled": .bool(true)]),
            "login": dictionary(["style": .string("new")]),
        ]))
    }

    @Test func anEntryReplacedByAPlainValueLeavesNothingOfItsOldInsideBehind() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = store(folder)
        // Each feature first holds a dictionary of variables (pending: one change per variable), then
        // a plain value (pending: one change of the feature). Kept by path in one table, the two
        // changes could be applied in either order; twenty features make a lucky order vanishingly rare.
        let features = (1...20).map { "feature\($0)" }
        try writer.set(dictionary(Dictionary(uniqueKeysWithValues: features.map {
            ($0, dictionary(["variable": .int(1)]))
        })), forKey: "overrides")
        try writer.set(dictionary(Dictionary(uniqueKeysWithValues: features.map { ($0, .int(5)) })), forKey: "overrides")
        try writer.flush()
        let expected = dictionary(Dictionary(uniqueKeysWithValues: features.map { ($0, .int(5)) }))
        #expect(try store(folder).value(forKey: "overrides") == expected)
        #expect(try writer.value(forKey: "overrides") == expected)
    }

    @Test func anEntryTurnedBackIntoADictionaryKeepsOnlyItsNewInside() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = store(folder)
        let features = (1...20).map { "feature\($0)" }
        try writer.set(dictionary(Dictionary(uniqueKeysWithValues: features.map { ($0, .int(5)) })), forKey: "overrides")
        try writer.set(dictionary(Dictionary(uniqueKeysWithValues: features.map {
            ($0, dictionary(["variable": .int(2)]))
        })), forKey: "overrides")
        try writer.set(dictionary(Dictionary(uniqueKeysWithValues: features.map {
            ($0, dictionary(["variable": .int(3), "other": .bool(true)]))
        })), forKey: "overrides")
        try writer.flush()
        let expected = dictionary(Dictionary(uniqueKeysWithValues: features.map {
            ($0, dictionary(["variable": .int(3), "other": .bool(true)]))
        }))
        #expect(try store(folder).value(forKey: "overrides") == expected)
    }

    @Test func removingTheLastEntriesRemovesTheKey() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = store(folder)
        try writer.set(dictionary(["search": dictionary(["enabled": .bool(true)])]), forKey: "overrides")
        try writer.flush()
        try writer.set(dictionary([:]), forKey: "overrides")
        try writer.flush()
        #expect(try store(folder).value(forKey: "overrides") == nil)
    }
}
