import Foundation
import Locking
import Testing
@testable import Tweaks
import TestSupport

/// `FlagdTweakProvider` in a `TweakManager`: values, variants, reasons, metadata, caching, reloads.
@Suite struct FlagdProviderTests {
    static let flags = """
        {
          "metadata": {"team": "shop"},
          "$evaluators": {"isBeta": {"in": [{"var": "plan"}, ["beta", "staff"]]}},
          "flags": {
            "checkout.new-flow": {
              "state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
              "targeting": {"if": [{"$ref": "isBeta"}, "on"]},
              "metadata": {"owner": "ana"}
            },
            "checkout.max-items": {"state": "ENABLED", "variants": {"few": 3, "many": 30}, "defaultVariant": "many"},
            "theme": {
              "state": "ENABLED", "variants": {"light": "light", "dark": "dark"}, "defaultVariant": null,
              "targeting": {"if": [{"==": [{"var": "country"}, "NO"]}, "dark", null]}
            },
            "banner": {"state": "DISABLED", "variants": {"on": true}, "defaultVariant": "on"},
            "rollout": {
              "state": "ENABLED", "variants": {"old": "old", "new": "new"}, "defaultVariant": "old",
              "targeting": {"fractional": [["old", 50], ["new", 50]]}
            },
            "broken": {
              "state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a",
              "targeting": {"if": [true, "z"]}
            }
          }
        }
        """

    func provider(in folder: TemporaryFolder, _ json: String = Self.flags, watch: Duration? = nil) throws -> FlagdTweakProvider {
        try FlagdTweakProvider(fileURL: try folder.write(json, to: "flags.flagd.json"), watchInterval: watch)
    }

    @Test func staticFlagIsItsDefaultVariant() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try provider(in: folder)])
        let resolution = manager.resolve("checkout", "max-items", default: 0)
        #expect(resolution.value == 30)
        #expect(resolution.variant == "many")
        #expect(resolution.reason == .static)
        #expect(resolution.metadata == ["team": "shop"])
        #expect(resolution.source == "flags.flagd.json")
        #expect(resolution.errorCode == nil)
    }

    @Test func targetingMatchAndDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try provider(in: folder)])
        let beta = manager.resolve("checkout", "new-flow", default: false, context: TweakContext(attributes: ["plan": "beta"]))
        #expect(beta.value == true && beta.variant == "on" && beta.reason == .targetingMatch)
        #expect(beta.metadata == ["team": "shop", "owner": "ana"])
        let free = manager.resolve("checkout", "new-flow", default: true, context: TweakContext(attributes: ["plan": "free"]))
        #expect(free.value == false && free.variant == "off" && free.reason == .default)
    }

    @Test func noDefaultVariantLeavesTheCallersDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try provider(in: folder)])
        let norway = manager.resolve("theme", "theme", default: "system", context: TweakContext(attributes: ["country": "NO"]))
        #expect(norway.value == "dark" && norway.reason == .targetingMatch)
        let elsewhere = manager.resolve("theme", "theme", default: "system", context: TweakContext(attributes: ["country": "FR"]))
        #expect(elsewhere.value == "system")
        #expect(elsewhere.reason == .default)
        #expect(elsewhere.errorCode == nil)
        #expect(elsewhere.variant == nil)
    }

    @Test func disabledFlagIsTheCallersDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try provider(in: folder)])
        let banner = manager.resolve("banner", "banner", default: false)
        #expect(banner.value == false)
        #expect(banner.reason == .disabled)
        #expect(banner.errorCode == nil)
        #expect(throws: TweakError.self) { try manager.lookup(feature: "banner", variable: "banner") }
    }

    @Test func variantTheFlagLacksIsAGeneralError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try provider(in: folder)])
        let broken = manager.resolve("broken", "broken", default: 7)
        #expect(broken.value == 7)
        #expect(broken.reason == .error)
        #expect(broken.errorCode == .general)
    }

    @Test func fractionalIsATargetingMatchStablePerUser() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try provider(in: folder)])
        var seen: Set<String> = []
        for user in 0..<40 {
            let context = TweakContext(targetingKey: "user-\(user)")
            let first = manager.resolve("rollout", "rollout", default: "none", context: context)
            #expect(first.reason == .targetingMatch)
            #expect(manager.resolve("rollout", "rollout", default: "none", context: context).value == first.value)
            seen.insert(first.value)
        }
        #expect(seen == ["old", "new"])
        // Without a targeting key the split cannot bucket: the default variant.
        let anonymous = manager.resolve("rollout", "rollout", default: "none")
        #expect(anonymous.value == "old" && anonymous.reason == .default)
    }

    @Test func cacheKeepsStaticFlagsButNotTargetedOnes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try provider(in: folder)], cacheEnabled: true)
        _ = try manager.lookup(feature: "checkout", variable: "max-items")
        #expect(try manager.lookup(feature: "checkout", variable: "max-items").isCached)
        _ = try manager.lookup(feature: "checkout", variable: "new-flow", context: TweakContext(attributes: ["plan": "beta"]))
        let again = try manager.lookup(feature: "checkout", variable: "new-flow", context: TweakContext(attributes: ["plan": "free"]))
        #expect(!again.isCached)
        #expect(again.tweak.variant == "off")
        #expect(again.tweak.dependsOnContext)
    }

    @Test func tweakWithoutContextAndAllTweaks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = try provider(in: folder)
        #expect(try provider.tweak(feature: "checkout", variable: "new-flow")?.variant == "off")
        #expect(try provider.tweak(feature: "nothing", variable: "here") == nil)
        #expect(throws: TweakError.self) { try provider.tweak(feature: "banner", variable: "banner") }
        let listed = Dictionary(uniqueKeysWithValues: try provider.allTweaks().map { ($0.key.flagKey, $0) })
        #expect(Set(listed.keys) == ["checkout.new-flow", "checkout.max-items", "rollout", "broken", "banner"])
        #expect(listed["checkout.max-items"]?.reason == .static)
        #expect(listed["checkout.new-flow"]?.reason == .default)
        #expect(listed["banner"]?.reason == .disabled)
        // The keys include the flag without a default variant, which has no tweak to list.
        #expect(Set(try provider.allKeys().map(\.flagKey)) == Set(listed.keys).union(["theme"]))
    }

    @Test func nullsInsideTheContextReachTheRules() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // JavaScript writes [1, null] as "1,": the rule sees the null where it is.
        let manager = TweakManager(providers: [try provider(in: folder, """
            {"flags": {"seen": {"state": "ENABLED", "variants": {"kept": "kept", "lost": "lost"}, "defaultVariant": "lost",
              "targeting": {"if": [{"==": [{"cat": [{"var": "tags"}]}, "1,"]}, "kept", "lost"]}}}}
            """)])
        let withNull = try TweakContext(jsonText: #"{"tags": [1, null]}"#)
        #expect(manager.resolve("seen", "seen", default: "", context: withNull).value == "kept")
        #expect(manager.resolve("seen", "seen", default: "", context: TweakContext(attributes: ["tags": [1]])).value == "lost")
    }

    @Test func reloadReportsAChangeAndKeepsTheOldFlagsOnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = try provider(in: folder)
        let manager = TweakManager(providers: [provider], cacheEnabled: true)
        let changes = Locked(0)
        let observation = provider.observeChanges { _ in changes.withLock { $0 += 1 } }
        defer { observation?.remove() }
        #expect(manager.resolve("checkout", "max-items", default: 0).value == 30)
        _ = try folder.write(Self.flags.replacingOccurrences(of: "\"defaultVariant\": \"many\"", with: "\"defaultVariant\": \"few\""), to: "flags.flagd.json")
        try provider.reload()
        #expect(changes.withLock { $0 } == 1)
        #expect(manager.resolve("checkout", "max-items", default: 0).value == 3)
        _ = try folder.write("{\"flags\": ", to: "flags.flagd.json")
        #expect(throws: TweakError.self) { try provider.reload() }
        #expect(manager.resolve("checkout", "max-items", default: 0).value == 3)
    }

    @Test func aChangedFileIsReadAgainByItself() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = try provider(in: folder, watch: .milliseconds(20))
        let manager = TweakManager(providers: [provider])
        #expect(manager.resolve("checkout", "max-items", default: 0).value == 30)
        _ = try folder.write(Self.flags.replacingOccurrences(of: "\"many\": 30", with: "\"many\": 300"), to: "flags.flagd.json")
        var value = 0
        for _ in 0..<250 {
            value = manager.resolve("checkout", "max-items", default: 0).value
            if value == 300 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(value == 300)
    }
}
