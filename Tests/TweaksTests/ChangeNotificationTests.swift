import Foundation
import Synchronization
import Testing
@testable import Tweaks
import Locking

@Suite struct ChangeNotificationTests {
    /// A mutable provider that does not report its own changes, so the manager must.
    final class SilentProvider: MutableTweakProvider {
        let name = "silent"
        let values = Locked<[TweakKey: JSONValue]>([:])
        func tweak(feature: String, variable: String) throws -> Tweak? {
            values.withLock { $0[TweakKey(feature: feature, variable: variable)] }
                .map { Tweak(feature: feature, variable: variable, value: $0) }
        }
        func allTweaks() throws -> [Tweak] { [] }
        func set(_ value: JSONValue, feature: String, variable: String) throws {
            values.withLock { $0[TweakKey(feature: feature, variable: variable)] = value }
        }
        func delete(feature: String, variable: String) throws {
            values.withLock { $0[TweakKey(feature: feature, variable: variable)] = nil }
        }
    }

    @Test func observersReceiveTheTweakNowInEffect() throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let defaults = EphemeralTweakProvider(name: "defaults", values: ["f": ["v": "default"]])
        let manager = TweakManager(providers: [overrides, defaults])
        let changes = Locked<[TweakChange]>([])
        let observation = manager.observe { change in changes.withLock { $0.append(change) } }

        try manager.set("custom", feature: "f", variable: "v")
        try manager.delete(feature: "f", variable: "v")
        let seen = changes.withLock { $0 }
        #expect(seen.count == 2)
        #expect(seen[0].key == TweakKey(feature: "f", variable: "v"))
        #expect(seen[0].provider == "overrides")
        #expect(seen[0].tweak?.value == "custom" && seen[0].tweak?.source == "overrides")
        #expect(seen[1].tweak?.value == "default" && seen[1].tweak?.source == "defaults")

        observation.remove()
        try manager.set("again", feature: "f", variable: "v")
        #expect(changes.withLock { $0.count } == 2)
    }

    @Test func writesToSilentProvidersAreReportedOnce() throws {
        let manager = TweakManager(providers: [SilentProvider()])
        let changes = Locked<[TweakChange]>([])
        let observation = manager.observe { change in changes.withLock { $0.append(change) } }
        try manager.set(1, feature: "f", variable: "v")
        #expect(changes.withLock { $0.map(\.tweak?.value) } == [1])
        _ = observation
    }

    @Test func droppingTheObservationUnregisters() throws {
        let manager = TweakManager(providers: [EphemeralTweakProvider()])
        let count = Atomic<Int>(0)
        do {
            let observation = manager.observe { _ in count.add(1, ordering: .relaxed) }
            try manager.set(1, feature: "f", variable: "v")
            _ = observation
        }
        try manager.set(2, feature: "f", variable: "v")
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test func aNotificationIsPostedWithTheChange() throws {
        let manager = TweakManager(providers: [EphemeralTweakProvider()])
        let received = Locked<[Tweak]>([])
        let token = NotificationCenter.default.addObserver(forName: .tweakDidChange, object: manager, queue: nil) { note in
            let change = note.userInfo?[TweakManager.changeUserInfoKey] as? TweakChange
            let tweak = note.userInfo?[TweakManager.tweakUserInfoKey] as? Tweak
            if let tweak, change?.tweak == tweak { received.withLock { $0.append(tweak) } }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try manager.set("on", feature: "f", variable: "v")
        #expect(received.withLock { $0.map(\.value) } == ["on"])
    }

    @Test func aProviderWideChangeHasNoKey() throws {
        let closure = ClosureTweakProvider(name: "lua") { _, _ in nil }
        let manager = TweakManager(providers: [closure])
        let changes = Locked<[TweakChange]>([])
        let observation = manager.observe { change in changes.withLock { $0.append(change) } }
        closure.notifyChanged()
        let seen = changes.withLock { $0 }
        #expect(seen.count == 1 && seen[0].key == nil && seen[0].provider == "lua")
        _ = observation
    }
}
