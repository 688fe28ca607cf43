import Foundation
import Testing
import Locking
import TestSupport
@testable import Tweaks

/// The built-in cipher: the sealed format, keys and their rotation, and every way a value fails to open.
@Suite struct CipherTests {
    static func ring(_ ids: String...) throws -> TweakCipherKeyring {
        try TweakCipherKeyring(ids.map { try TweakCipherKey.generate(id: $0) })
    }

    @Test func sealedValuesOfEveryTypeOpenAgainWithTheirTypeAndNameTheirKey() throws {
        let cipher = TweakCipher(keyring: try Self.ring("k1"))
        let values: [JSONValue] = [true, 42, 2.5, "demo-token", ["a", 1], ["columns": 3, "style": "grid"], ""]
        for value in values {
            let sealed = try cipher.seal(value)
            #expect(sealed.hasPrefix("es1:k1:"))
            #expect(TweakCipher.isSealedText(sealed))
            #expect(try TweakCipher.keyID(of: sealed) == "k1")
            #expect(try cipher.open(sealed) == value)
        }
        // A fresh nonce each time: the same value never seals to the same text.
        #expect(try cipher.seal("same") != cipher.seal("same"))
    }

    @Test func twoKeysAtOnceTheLastSealsAndEachOpensWhatItSealed() throws {
        let old = try TweakCipherKey.generate(id: "2025")
        let new = try TweakCipherKey.generate(id: "2026")
        let before = TweakCipher(keyring: try TweakCipherKeyring([old]))
        let sealedWithOld = try before.seal("old secret")

        let rotated = TweakCipher(keyring: try TweakCipherKeyring([old, new]))
        let sealedWithNew = try rotated.seal("new secret")
        #expect(try TweakCipher.keyID(of: sealedWithNew) == "2026")
        #expect(try rotated.open(sealedWithOld) == "old secret")
        #expect(try rotated.open(sealedWithNew) == "new secret")
        #expect(try TweakCipher.keyID(of: rotated.seal("pinned", keyID: "2025")) == "2025")
        #expect(throws: TweakCipherError.unknownKey(id: "2024", known: ["2025", "2026"])) { try rotated.seal("x", keyID: "2024") }

        // Once the old key is dropped, what it sealed names it and does not open.
        let retired = TweakCipher(keyring: try TweakCipherKeyring([new]))
        #expect(throws: TweakCipherError.unknownKey(id: "2025", known: ["2026"])) { try retired.open(sealedWithOld) }
    }

    @Test func aWrongKeyUnderTheSameIdFailsToAuthenticate() throws {
        let sealed = try TweakCipher(keyring: try Self.ring("k1")).seal("secret")
        let other = TweakCipher(keyring: try Self.ring("k1"))
        #expect(throws: TweakCipherError.authenticationFailed(keyID: "k1")) { try other.open(sealed) }
    }

    @Test func tamperedValuesNeverOpen() throws {
        let cipher = TweakCipher(keyring: try Self.ring("k1", "k2"))
        let sealed = try cipher.seal(["user": "qa", "password": "hunter2"], keyID: "k1")
        let parts = sealed.split(separator: ":").map(String.init)
        var payload = Array(Data(base64Encoded: parts[2])!)
        // Every byte of the payload, flipped in turn: nonce, ciphertext and tag are all authenticated.
        for index in payload.indices {
            payload[index] ^= 0x01
            let changed = "es1:k1:" + Data(payload).base64EncodedString()
            #expect(throws: TweakCipherError.authenticationFailed(keyID: "k1")) { try cipher.open(changed) }
            payload[index] ^= 0x01
        }
        // The key id is authenticated too: the same payload under the other key's id does not open.
        #expect(throws: TweakCipherError.authenticationFailed(keyID: "k2")) { try cipher.open("es1:k2:" + parts[2]) }
    }

    @Test func truncatedValuesFailNamingTheirKeyOrWhatIsMissing() throws {
        let cipher = TweakCipher(keyring: try Self.ring("k1"))
        let sealed = try cipher.seal("a secret that is long enough to cut")
        let payload = Data(base64Encoded: String(sealed.split(separator: ":")[2]))!
        // Cut at a byte boundary: base64 still decodes, the box is shorter.
        for length in [0, 10, 27, 28, payload.count - 1] {
            let cut = "es1:k1:" + payload.prefix(length).base64EncodedString()
            #expect(throws: TweakCipherError.self) { try cipher.open(cut) }
            do {
                _ = try cipher.open(cut)
            } catch let error as TweakCipherError {
                #expect("\(error)".contains("'k1'"), "\(error)")
            }
        }
        // Cut inside the text: no longer base64.
        #expect(throws: TweakCipherError.self) { try cipher.open(String(sealed.dropLast(3))) }
        #expect(throws: TweakCipherError.malformed(reason: "expected three parts separated by ':'")) { try cipher.open("es1:k1") }
        #expect(throws: TweakCipherError.unsupportedVersion("es2")) { try cipher.open("es2:k1:AAAA") }
        #expect(!TweakCipher.isSealedText("plain text"))
        #expect(!TweakCipher.isSealedText("es:k1:AAAA"))
    }

    @Test func theManagerOpensSealedValuesOfEveryProviderAndTellsWhichKey() throws {
        let cipher = TweakCipher(keyring: try Self.ring("k1", "k2"))
        let sealed = Tweak(feature: "api", variable: "token", value: .string(try cipher.seal("t0ken", keyID: "k1")), isEncrypted: true)
        let handMade = Tweak(feature: "api", variable: "legacy", value: .string(TestCipher.encrypt("old")), isEncrypted: true)
        let shipped = EphemeralTweakProvider(name: "shipped", tweaks: [sealed, handMade])
        let tweaks = TweakManager(providers: [EphemeralTweakProvider(name: "overrides"), shipped], cacheEnabled: true)
        tweaks.cipher = cipher
        // A hand-written decryptor still opens the values that are not in the cipher's format.
        tweaks.decryptor = TestCipher.decryptor
        #expect(try tweaks.value("api", "token", as: String.self) == "t0ken")
        #expect(try tweaks.value("api", "legacy", as: String.self) == "old")
        #expect(try tweaks.tweak(feature: "api", variable: "token").isSealed)
        let explained = tweaks.explain(feature: "api", variable: "token")
        #expect(explained.steps.last?.openedBy == .cipher(keyID: "k1"))
        #expect(tweaks.explain(feature: "api", variable: "legacy").steps.last?.openedBy == .stackDecryptor)
        // Every listed value is opened too.
        #expect(tweaks.list().failures.isEmpty)

        // A cipher without the key: the error names the flag, the provider and the key id.
        tweaks.cipher = TweakCipher(keyring: try Self.ring("k2"))
        #expect {
            _ = try tweaks.value("api", "token", as: String.self)
        } throws: { error in
            let text = "\(error)"
            return text.contains("'api.token'") && text.contains("shipped") && text.contains("key 'k1'")
        }
    }

    @Test func theKeyListFormatNamesTheLineOfAProblemAndNeverQuotesIt() throws {
        let key = try TweakCipherKey.generate(id: "k1")
        let ring = try TweakCipherKeyring.parse("# keys\n\(key.id) \(key.base64)\n\ndemo \(try TweakCipherKey.generate(id: "x").base64) demo # shared\n", origin: "keys.txt")
        #expect(ring.ids == ["k1", "demo"])
        #expect(ring.sealingKey?.id == "demo" && ring.sealingKey?.isDemo == true)
        #expect(try TweakCipherKeyring.parse(ring.text, origin: "again") == ring)
        #expect(try TweakCipherKeyring.parse("a \(key.base64);b \(try TweakCipherKey.generate(id: "b").base64)", origin: "$KEYS").ids == ["a", "b"])

        let secretLooking = "k1 c2VjcmV0LXNob3J0"
        #expect {
            _ = try TweakCipherKeyring.parse("# ok\n\(secretLooking)\n", origin: "keys.txt")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("keys.txt:2: ") && text.contains("not the base64 of 32 bytes") && !text.contains("c2VjcmV0")
                && !text.contains("'k1'")
        }
        #expect(throws: TweakCipherError.invalidKeys(origin: "f", line: 2, reason: "a second key with an id already used above; ids must be unique")) {
            try TweakCipherKeyring.parse("k1 \(key.base64)\nk1 \(key.base64)", origin: "f")
        }
        #expect(throws: TweakCipherError.self) { try TweakCipherKeyring.parse("k/1 \(key.base64)", origin: "f") }
        #expect(throws: TweakCipherError.self) { try TweakCipherKeyring.parse("k1 \(key.base64) extra", origin: "f") }
    }

    @Test func keyFilesAreMadePrivateAndRefusedWhenOthersMayReadThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("app.tweak-keys")
        let first = try TweakKeyFile.addGeneratedKey(to: file)
        let second = try TweakKeyFile.addGeneratedKey(to: file, id: "2026-11")
        #expect(first.key.id == "k1" && second.key.id == "2026-11")
        #expect(second.ring.ids == ["k1", "2026-11"])
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try TweakKeyFile.read(file) == second.ring)
        #expect(throws: TweakCipherError.self) { try TweakKeyFile.addGeneratedKey(to: file, id: "k1") }
        #expect(try TweakKeyFile.read(file).ids == ["k1", "2026-11"], "a refused key leaves the file as it was")

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        #expect {
            _ = try TweakKeyFile.read(file)
        } throws: { error in
            guard case .keyFilePermissions(let path, _)? = (error as? TweakCipherError)?.reason else { return false }
            return path == file.path && "\(error)".contains("chmod 600")
        }
        #expect(throws: TweakCipherError.self) { try TweakKeyFile.addGeneratedKey(to: file) }

        // A file of demo keys may be read by others (a checkout gives it 644), never written.
        let demo = folder.url.appendingPathComponent("demo.tweak-keys")
        try TweakKeyFile.addGeneratedKey(to: demo, id: "demo", isDemo: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: demo.path)
        #expect(try TweakKeyFile.read(demo).holdsOnlyDemoKeys)
        #expect(throws: TweakCipherError.self) { try TweakKeyFile.addGeneratedKey(to: demo, id: "real") }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: demo.path)
        #expect(throws: TweakCipherError.keyFilePermissions(path: demo.path, mode: 0o100666)) {
            try TweakKeyFile.read(demo)
        }
        #expect(throws: TweakCipherError.self) { try TweakKeyFile.read(folder.url.appendingPathComponent("missing")) }
    }

    @Test func keysAddedFromManyThreadsAtOnceAllLand() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("app.tweak-keys")
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            do {
                try TweakKeyFile.addGeneratedKey(to: file, id: "t\(index)")
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(Set(try TweakKeyFile.read(file).ids) == Set((0..<16).map { "t\($0)" }))
    }
}

/// Key files that are not the user's own, or not files, are refused before a byte is read.
@Suite struct KeyFileOwnershipTests {
    @Test func aFifoASymbolicLinkToCreateThroughAndAnotherUsersFileAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A FIFO would block a reader forever: it is refused without waiting for a writer.
        let fifo = folder.url.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: TweakCipherError.keyFileIO(path: fifo.path, operation: "use", reason: "it is not a regular file")) {
            try TweakKeyFile.read(fifo)
        }
        // keygen never creates a key file through a symbolic link.
        let target = folder.url.appendingPathComponent("elsewhere")
        let link = folder.url.appendingPathComponent("link.keys")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: TweakCipherError.self) { try TweakKeyFile.addGeneratedKey(to: link) }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        // A file of another user: whoever owns it chooses the keys, so it is refused (only root can make one).
        let file = folder.url.appendingPathComponent("theirs.keys")
        try TweakKeyFile.addGeneratedKey(to: file)
        if geteuid() == 0 {
            #expect(chown(file.path, 65534, 65534) == 0)
            #expect {
                _ = try TweakKeyFile.read(file)
            } throws: { "\($0)".contains("belongs to another user (uid 65534)") }
        } else {
            #expect(chown(file.path, 0, 0) != 0, "only root gives a file away")
        }
    }
}
