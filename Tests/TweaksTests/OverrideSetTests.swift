import Foundation
import Locking
import Preferences
import Testing
@testable import Tweaks
import TestSupport

/// The overrides of the active container as one set: listed together, removed in one step with one
/// notification.
@Suite struct OverrideSetTests {
    @Test func theOverridesAreListedAndRemovedAllAtOnceWithOneNotification() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let overrides = OverridesTweakProvider(store: PreferencesStore(home: folder.url, appID: "app"))
        let defaults = EphemeralTweakProvider(name: "defaults", values: ["ui": ["color": "blue", "size": 10]])
        let tweaks = TweakManager(providers: [overrides, defaults], cacheEnabled: true)
        try tweaks.set("red", feature: "ui", variable: "color")
        try tweaks.set(12, feature: "ui", variable: "size")
        try tweaks.set(["a": 1], feature: "beta", variable: "config")
        #expect(try tweaks.listOverrides().map { "\($0.feature).\($0.variable)=\($0.value)" }
                == ["beta.config={\"a\": 1}", "ui.color=\"red\"", "ui.size=12"])
        #expect(try tweaks.value("ui", "color", as: String.self) == "red", "the cache holds the override")

        let heard = Locked<[TweakChange]>([])
        let observation = tweaks.observe { change in heard.withLock { $0.append(change) } }
        let outcome = try tweaks.deleteAllOverrides()
        observation.remove()
        #expect(outcome.removed == 3)
        #expect(outcome.providers == ["overrides"])
        let changes = heard.withLock { $0 }
        #expect(changes.count == 1, "one notification for the batch: \(changes)")
        #expect(changes.first?.provider == "overrides" && changes.first?.key == nil)
        #expect(try tweaks.listOverrides().isEmpty)
        #expect(try tweaks.value("ui", "color", as: String.self) == "blue", "the cache was emptied")
        // The removal reached the file: a fresh store has none.
        #expect(try OverridesTweakProvider(store: PreferencesStore(home: folder.url, appID: "app")).allTweaks().isEmpty)
        #expect(try tweaks.deleteAllOverrides().removed == 0)
    }

    @Test func aStackWithoutOverridesHasNoneToListOrRemove() throws {
        let tweaks = TweakManager(providers: [EphemeralTweakProvider(values: ["f": ["v": 1]])])
        #expect(try tweaks.listOverrides().isEmpty)
        let outcome = try tweaks.deleteAllOverrides()
        #expect(outcome.removed == 0 && outcome.providers.isEmpty)
    }
}
