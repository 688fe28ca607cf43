import Foundation
import Synchronization
import Testing
@testable import Tweaks
import Locking

@Suite struct CacheTests {
    /// A provider that counts how often it is asked, so tests can see whether the cache answered.
    final class CountingProvider: TweakProvider {
        let name = "counting"
        let value = Locked<JSONValue>(1)
        let calls = Atomic<Int>(0)
        func tweak(feature: String, variable: String) throws -> Tweak? {
            calls.add(1, ordering: .relaxed)
            return Tweak(feature: feature, variable: variable, value: value.withLock { $0 })
        }
        func allTweaks() throws -> [Tweak] { [] }
        var count: Int { calls.load(ordering: .relaxed) }
    }

    @Test func theCacheIsOffByDefaultAndAnswersWhenOn() throws {
        let counting = CountingProvider()
        let manager = TweakManager(providers: [counting])
        _ = try manager.lookup(feature: "f", variable: "v")
        _ = try manager.lookup(feature: "f", variable: "v")
        #expect(counting.count == 2)

        manager.cacheEnabled = true
        let first = try manager.lookup(feature: "f", variable: "v")
        let second = try manager.lookup(feature: "f", variable: "v")
        #expect(!first.isCached && second.isCached)
        #expect(counting.count == 3)
    }

    @Test func resetCacheDropsStaleAnswers() throws {
        let counting = CountingProvider()
        let manager = TweakManager(providers: [counting], cacheEnabled: true)
        #expect(try manager.value("f", "v", as: Int.self) == 1)
        counting.value.withLock { $0 = 2 }
        #expect(try manager.value("f", "v", as: Int.self) == 1)  // cached, as asked
        manager.resetCache()
        #expect(try manager.value("f", "v", as: Int.self) == 2)
    }

    @Test func setAndDeleteInvalidate() throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let counting = CountingProvider()
        let manager = TweakManager(providers: [overrides, counting], cacheEnabled: true)
        #expect(try manager.value("f", "v", as: Int.self) == 1)
        try manager.set(5, feature: "f", variable: "v")
        #expect(try manager.value("f", "v", as: Int.self) == 5)
        try manager.delete(feature: "f", variable: "v")
        #expect(try manager.value("f", "v", as: Int.self) == 1)
    }

    @Test func aChangeInsideAProviderInvalidates() throws {
        let ephemeral = EphemeralTweakProvider(name: "e", values: ["f": ["v": 1]])
        let closureValue = Locked<JSONValue>("a")
        let closure = ClosureTweakProvider(name: "lua") { _, variable in
            variable == "c" ? closureValue.withLock { $0 } : nil
        }
        let manager = TweakManager(providers: [ephemeral, closure], cacheEnabled: true)
        #expect(try manager.value("f", "v", as: Int.self) == 1)
        #expect(try manager.value("f", "c", as: String.self) == "a")

        try ephemeral.set(2, feature: "f", variable: "v")  // directly, not through the manager
        #expect(try manager.value("f", "v", as: Int.self) == 2)
        #expect(try manager.value("f", "c", as: String.self) == "a")  // cached again

        closureValue.withLock { $0 = "b" }
        #expect(try manager.value("f", "c", as: String.self) == "a")
        closure.notifyChanged()
        #expect(try manager.value("f", "c", as: String.self) == "b")
    }

    @Test func replacingTheStackInvalidates() throws {
        let manager = TweakManager(providers: [EphemeralTweakProvider(values: ["f": ["v": 1]])], cacheEnabled: true)
        #expect(try manager.value("f", "v", as: Int.self) == 1)
        manager.setProviders([EphemeralTweakProvider(values: ["f": ["v": 2]])])
        #expect(try manager.value("f", "v", as: Int.self) == 2)
    }
}
