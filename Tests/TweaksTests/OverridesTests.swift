import Foundation
import Preferences
import Testing
@testable import Tweaks
import TestSupport
import Locking

@Suite struct OverridesTests {
    @Test func overridesAreKeyedByFeatureAndVariable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let overrides = OverridesTweakProvider(store: store)
        try overrides.set(true, feature: "checkout", variable: "enabled")
        try overrides.set(false, feature: "search", variable: "enabled")
        #expect(try overrides.tweak(feature: "checkout", variable: "enabled")?.value == true)
        #expect(try overrides.tweak(feature: "search", variable: "enabled")?.value == false)
        try overrides.delete(feature: "checkout", variable: "enabled")
        #expect(try overrides.tweak(feature: "checkout", variable: "enabled") == nil)
        #expect(try overrides.tweak(feature: "search", variable: "enabled")?.value == false)
        #expect(try overrides.allTweaks().map(\.key) == [TweakKey(feature: "search", variable: "enabled")])
    }

    /// `OverridesTweakProvider(home:appID:)` keeps its overrides where a host of that home does: the
    /// application's preferences file, `Library/Preferences/<appID>.plist`.
    @Test func overridesOfAHomeAreInItsApplicationsPreferences() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let overrides = OverridesTweakProvider(home: folder.url, appID: "com.example.shop")
        try overrides.set(.int(3), feature: "checkout", variable: "max_items")
        let file = folder.url.appendingPathComponent("Library/Preferences/com.example.shop.plist")
        #expect(FileManager.default.fileExists(atPath: file.path))
        let other = OverridesTweakProvider(store: PreferencesStore(fileURL: file))
        #expect(try other.tweak(feature: "checkout", variable: "max_items")?.value == .int(3))
        #expect(try OverridesTweakProvider(home: folder.url, appID: "other").allTweaks().isEmpty)
    }

    @Test func overridesPersistInThePreferencesFileWithTheirTypes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let overrides = OverridesTweakProvider(store: PreferencesStore(home: folder.url, appID: "app"))
        try overrides.set(.int(1), feature: "f", variable: "int")
        try overrides.set(.bool(true), feature: "f", variable: "bool")
        try overrides.set(.double(2), feature: "f", variable: "double")
        try overrides.set(.string("s"), feature: "f", variable: "string")

        // Flushed on each change by default, so a fresh store over the same file sees them.
        let reread = OverridesTweakProvider(store: PreferencesStore(home: folder.url, appID: "app"))
        let manager = TweakManager(providers: [reread])
        #expect(try manager.value("f", "int", as: Int.self) == 1)
        #expect(throws: TweakError.self) { try manager.value("f", "int", as: Bool.self) }
        #expect(try manager.value("f", "bool", as: Bool.self) == true)
        #expect(try manager.lookup(feature: "f", variable: "double").value == .double(2))
        #expect(try manager.value("f", "string", as: String.self) == "s")
    }

    @Test func overridesAreIsolatedWhenTheStoreIsSwitchedToAnotherFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        let overrides = OverridesTweakProvider(store: store)
        let defaults = EphemeralTweakProvider(name: "defaults", values: ["f": ["v": "default"]])
        let manager = TweakManager(providers: [overrides, defaults], cacheEnabled: true)
        let changes = Locked<[TweakChange]>([])
        let observation = manager.observe { change in changes.withLock { $0.append(change) } }

        try manager.set("in A", feature: "f", variable: "v")
        #expect(try manager.value("f", "v", as: String.self) == "in A")

        // Switch to B the way the container engine does: flush, move A's file away, reload.
        try store.flush()
        let stashA = folder.url.appendingPathComponent("A.plist")
        try FileManager.default.moveItem(at: store.fileURL, to: stashA)
        try store.reload()
        #expect(try manager.value("f", "v", as: String.self) == "default")
        #expect(changes.withLock { $0.last?.tweak?.value } == "default")

        try manager.set("in B", feature: "f", variable: "v")
        try store.flush()
        let stashB = folder.url.appendingPathComponent("B.plist")
        try FileManager.default.moveItem(at: store.fileURL, to: stashB)
        try FileManager.default.moveItem(at: stashA, to: store.fileURL)
        try store.reload()
        #expect(try manager.value("f", "v", as: String.self) == "in A")
        #expect(changes.withLock { $0.last?.tweak?.value } == "in A")
        observation.remove()
    }

    @Test func aDamagedOverridesEntryIsAReportedFailure() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try store.set(["f": ["v": .data(Data([1]))]], forKey: SharedPreferenceKey.tweakOverrides)
        let manager = TweakManager(providers: [
            OverridesTweakProvider(store: store), EphemeralTweakProvider(name: "defaults", values: ["f": ["v": 1]]),
        ])
        let lookup = try manager.lookup(feature: "f", variable: "v")
        #expect(lookup.source == "defaults")
        #expect(lookup.failures.first?.provider == "overrides")
        #expect("\(lookup.failures.first!.error!)".contains("holds data or a date, which no tweak value can"))

        try store.set("not a dictionary", forKey: SharedPreferenceKey.tweakOverrides)
        #expect(try manager.lookup(feature: "f", variable: "v").failures.count == 1)
    }

    @Test func aCorruptPreferencesFileIsAReportedFailure() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = PreferencesStore(home: folder.url, appID: "app")
        try FileManager.default.createDirectory(at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: store.fileURL)
        let manager = TweakManager(providers: [
            OverridesTweakProvider(store: store), EphemeralTweakProvider(name: "defaults", values: ["f": ["v": 1]]),
        ])
        let lookup = try manager.lookup(feature: "f", variable: "v")
        #expect(lookup.value == 1)
        #expect("\(lookup.failures.first!.error!)".contains("app.plist"))
        #expect(throws: TweakError.self) { try manager.set(2, feature: "f", variable: "v") }
    }
}
