import Foundation
import Testing
@testable import Tweaks
import Locking

/// Providers, decryptors and observers that call back into the manager must never deadlock — with the
/// cache on, where JustTweak's could.
@Suite struct ReentrancyTests {
    @Test func aDecryptorThatReadsAnotherTweak() throws {
        let manager = TweakManager(cacheEnabled: true)
        manager.decryptor = { [unowned manager] tweak in
            let prefix = try manager.value("keys", "prefix", as: String.self)
            return .string(prefix + (try TestCipher.decrypt(tweak.value.stringValue ?? "")))
        }
        manager.setProviders([
            EphemeralTweakProvider(tweaks: [
                Tweak(feature: "keys", variable: "prefix", value: "k-"),
                Tweak(feature: "s", variable: "v", value: .string(TestCipher.encrypt("plain")), isEncrypted: true),
            ])
        ])
        #expect(try manager.value("s", "v", as: String.self) == "k-plain")
        #expect(try manager.value("s", "v", as: String.self) == "k-plain")
    }

    @Test func aProviderThatAsksTheManager() throws {
        let box = Locked<TweakManager?>(nil)
        let derived = ClosureTweakProvider(name: "derived") { feature, variable in
            guard variable == "double" else { return nil }
            let manager = box.withLock { $0 }!
            return .int(2 * (try manager.value(feature, "base", as: Int.self)))
        }
        let manager = TweakManager(
            providers: [derived, EphemeralTweakProvider(values: ["f": ["base": 21]])], cacheEnabled: true)
        box.withLock { $0 = manager }
        #expect(try manager.value("f", "double", as: Int.self) == 42)
        box.withLock { $0 = nil }
    }

    @Test func anObserverThatReadsAndWrites() throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(providers: [overrides], cacheEnabled: true)
        let seen = Locked<[String]>([])
        let observation = manager.observe { [unowned manager] change in
            guard let key = change.key else { return }
            let value = manager.value(key.feature, key.variable, default: -1)
            seen.withLock { $0.append("\(key)=\(value)") }
            if key.variable == "source" {
                try? manager.set(value * 10, feature: key.feature, variable: "mirror")
            }
        }
        try manager.set(4, feature: "f", variable: "source")
        #expect(seen.withLock { $0 } == ["f.source=4", "f.mirror=40"])
        #expect(try manager.value("f", "mirror", as: Int.self) == 40)
        observation.remove()
    }

    @Test func aNotificationCenterObserverThatReads() throws {
        let manager = TweakManager(providers: [EphemeralTweakProvider()], cacheEnabled: true)
        let seen = Locked<[Int]>([])
        let token = NotificationCenter.default.addObserver(forName: .tweakDidChange, object: manager, queue: nil) {
            [unowned manager] _ in
            seen.withLock { $0.append(manager.value("f", "v", default: -1)) }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try manager.set(3, feature: "f", variable: "v")
        #expect(seen.withLock { $0 } == [3])
    }
}
