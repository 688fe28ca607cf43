import Foundation
import Testing
@testable import Tweaks

@Suite struct ClosureProviderTests {
    @Test func aClosureProviderAnswersMissesAndFails() throws {
        struct Down: Error {}
        let provider = ClosureTweakProvider(name: "lua", list: { [Tweak(feature: "f", variable: "v", value: 1)] }) {
            feature, variable in
            switch variable {
            case "v": return .int(1)
            case "down": throw Down()
            default: return nil
            }
        }
        let manager = TweakManager(providers: [provider, EphemeralTweakProvider(values: ["f": ["down": "low"]])])
        #expect(try manager.lookup(feature: "f", variable: "v").source == "lua")
        let lookup = try manager.lookup(feature: "f", variable: "down")
        #expect(lookup.value == "low")
        #expect(lookup.failures.first?.error is Down)
        #expect(manager.list().tweaks.first { $0.variable == "v" }?.source == "lua")
    }

    @Test func aClosureProviderCanReturnEncryptedTweaks() throws {
        let provider = ClosureTweakProvider.withTweaks(name: "lua", decryptor: TestCipher.decryptor) { feature, variable in
            Tweak(feature: "ignored", variable: "ignored", value: .string(TestCipher.encrypt("7")), title: "Seven", isEncrypted: true)
        }
        let manager = TweakManager(providers: [provider])
        let lookup = try manager.lookup(feature: "f", variable: "v")
        #expect(lookup.tweak.key == TweakKey(feature: "f", variable: "v"))
        #expect(lookup.value == 7 && lookup.tweak.title == "Seven")
    }
}
