import Foundation
import Testing
@testable import Tweaks
import TestSupport

@Suite struct DecryptionTests {
    @Test func theManagersDecryptorOpensARealEncryptedValue() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try Fixtures.defaultsProvider(in: folder)], decryptor: TestCipher.decryptor)
        let lookup = try manager.lookup(feature: "general", variable: "encrypted_answer_to_the_universe")
        #expect(lookup.value == 24)
        #expect(!lookup.tweak.isEncrypted)
        #expect(lookup.tweak.isSealed, "decrypted, it is still a secret to mask")
        #expect(manager.list().tweaks.first { $0.variable == "encrypted_answer_to_the_universe" }?.isSealed == true)
        #expect(lookup.tweak.title == "Encrypted definitive answer")
    }

    @Test func aValueStoredInTheClearIsNoSecret() throws {
        let provider = EphemeralTweakProvider(name: "low", values: [:])
        provider.set(Tweak(feature: "f", variable: "v", value: "sealed", isEncrypted: true))
        #expect(try provider.tweak(feature: "f", variable: "v")?.isSealed == true)
        try provider.set("plain", feature: "f", variable: "v")
        #expect(try provider.tweak(feature: "f", variable: "v")?.isSealed == false)
    }

    @Test func anEncryptedValueWithoutADecryptorIsAClearError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let low = EphemeralTweakProvider(name: "low", values: ["general": ["encrypted_answer_to_the_universe": 1]])
        let manager = TweakManager(providers: [try Fixtures.defaultsProvider(in: folder), low])
        let error = #expect(throws: TweakError.self) {
            try manager.lookup(feature: "general", variable: "encrypted_answer_to_the_universe")
        }
        guard case .decryptorMissing(let feature, let variable, let source) = error?.reason else {
            Issue.record("expected decryptorMissing, got \(String(describing: error))")
            return
        }
        // Found but unreadable is an error, not a reason to fall back to the lower provider.
        #expect(feature == "general" && variable == "encrypted_answer_to_the_universe" && source == "defaults")
        #expect("\(error!)".contains("nothing can open it"))
    }

    @Test func theManagersDecryptorReachesProvidersAddedLater() throws {
        let manager = TweakManager(decryptor: TestCipher.decryptor)
        let later = EphemeralTweakProvider(
            name: "later",
            tweaks: [Tweak(feature: "s", variable: "token", value: .string(TestCipher.encrypt("secret")), isEncrypted: true)])
        manager.setProviders([later])
        #expect(try manager.value("s", "token", as: String.self) == "secret")
    }

    @Test func aProvidersOwnDecryptorWins() throws {
        let shifted: TweakDecryptor = { tweak in .string("own:" + (tweak.value.stringValue ?? "")) }
        let provider = EphemeralTweakProvider(
            name: "p", tweaks: [Tweak(feature: "s", variable: "v", value: "cipher", isEncrypted: true)], decryptor: shifted)
        let manager = TweakManager(providers: [provider], decryptor: TestCipher.decryptor)
        #expect(try manager.value("s", "v", as: String.self) == "own:cipher")
    }

    @Test func aFailingDecryptorIsReportedWithItsCause() throws {
        let manager = TweakManager(
            providers: [EphemeralTweakProvider(tweaks: [Tweak(feature: "s", variable: "v", value: "%%%", isEncrypted: true)])],
            decryptor: TestCipher.decryptor)
        let error = #expect(throws: TweakError.self) { try manager.lookup(feature: "s", variable: "v") }
        guard case .decryptionFailed(_, _, _, let underlying) = error?.reason else {
            Issue.record("expected decryptionFailed, got \(String(describing: error))")
            return
        }
        #expect(underlying is TestCipher.BadCiphertext)
    }

    @Test func settingTheDecryptorClearsTheCache() throws {
        let provider = EphemeralTweakProvider(
            tweaks: [Tweak(feature: "s", variable: "v", value: .string(TestCipher.encrypt("1")), isEncrypted: true)])
        let manager = TweakManager(providers: [provider], decryptor: { _ in .int(0) }, cacheEnabled: true)
        #expect(try manager.value("s", "v", as: Int.self) == 0)
        manager.decryptor = TestCipher.decryptor
        #expect(try manager.value("s", "v", as: Int.self) == 1)
    }
}
