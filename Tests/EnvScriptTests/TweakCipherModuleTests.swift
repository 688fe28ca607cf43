import EnvScript
import Foundation
import LuaBridge
import Testing
import Tweaks

/// `tweak.cipher` against a real host: key files, the host's keys, and sealed values through a switch.
@Suite struct TweakCipherModuleTests {
    /// A tweaks file holding `values` sealed with `cipher`, under feature `secrets`.
    static func sealedFlags(_ values: [String: JSONValue], with cipher: TweakCipher, keyID: String? = nil) throws -> String {
        let variables = try values.map { name, value in
            "\"\(name)\": { \"Value\": \"\(try cipher.seal(value, keyID: keyID))\", \"Encrypted\": true }"
        }
        return "{ \"secrets\": { \(variables.joined(separator: ", ")) } }"
    }

    @Test func aKeyFileOpensSealedValuesOfEveryTypeAndExplainNamesTheKey() throws {
        let fixture = try HostFixture()
        let keyFile = fixture.folder.appendingPathComponent("app.tweak-keys")
        let ring = try TweakKeyFile.addGeneratedKey(to: keyFile).ring
        let json = try fixture.write("flags.json", try Self.sealedFlags(
            ["token": "t0ken", "retries": 3, "gateway": ["merchant": "m-42", "sandbox": true]], with: TweakCipher(keyring: ring)))
        let result = try fixture.run("""
            local cipher = tweak.cipher{ key_file = '\(keyFile.path)' }
            tweak.stack{ tweak.overrides(), tweak.json('\(json)', 'shipped') }
            local gateway, info = tweak.get('secrets', 'gateway')
            local steps = tweak.explain('secrets', 'token').steps
            return tweak.value('secrets', 'token'), tweak.value('secrets', 'retries'), gateway.merchant, info.sealed,
                   steps[2].key_id, steps[2].opened_by, cipher:key_ids()[1]
            """)
        #expect(result == ["t0ken", 3, "m-42", true, "k1", "the cipher, key 'k1'", "k1"])
        #expect(try fixture.host.tweaks.value("secrets", "token", as: String.self) == "t0ken")
    }

    @Test func aHandWrittenDecryptorStillOpensTheOtherValues() throws {
        let fixture = try HostFixture()
        let keyFile = fixture.folder.appendingPathComponent("app.tweak-keys")
        let cipher = TweakCipher(keyring: try TweakKeyFile.addGeneratedKey(to: keyFile).ring)
        let sealed = try cipher.seal("from the cipher")
        let json = try fixture.write("flags.json", """
            { "api": { "new": { "Value": "\(sealed)", "Encrypted": true },
                       "old": { "Value": "terces", "Encrypted": true } } }
            """)
        try fixture.run("""
            tweak.stack{ tweak.json('\(json)') }
            tweak.cipher{ key_file = '\(keyFile.path)' }
            tweak.decryptor(function(t) return t.value:reverse() end)
            """)
        #expect(try fixture.run("return tweak.value('api', 'new'), tweak.value('api', 'old')") == ["from the cipher", "secret"])
        // Without the cipher, a sealed value goes to the decryptor like any other: here it reverses it.
        try fixture.run("tweak.cipher(false)")
        #expect(try fixture.run("return tweak.value('api', 'new')") == [.string(String(sealed.reversed()))])
        // Without both, the error says what to add.
        try fixture.run("tweak.decryptor(nil)")
        #expect(throws: LuaError.self) { try fixture.run("return tweak.get('api', 'new')") }
        do {
            try fixture.run("return tweak.get('api', 'new')")
        } catch let error as LuaError {
            #expect(error.message.contains("'api.new'") && error.message.contains("cipher"), "\(error.message)")
        }
    }

    @Test func theHostsKeysComeFirstAndTheKeyFileSealsAfterThem() throws {
        let hostKey = try TweakCipherKey.generate(id: "from-host")
        let fixture = try HostFixture(tweakKeys: .keys(try TweakCipherKeyring([hostKey])))
        let hostSealed = try TweakCipher(keyring: try TweakCipherKeyring([hostKey])).seal("host secret")
        let json = try fixture.write("flags.json", "{ \"s\": { \"v\": { \"Value\": \"\(hostSealed)\", \"Encrypted\": true } } }")
        try fixture.run("tweak.stack{ tweak.json('\(json)') }")
        // With no key file, the host's keys alone.
        #expect(try fixture.run("local c = tweak.cipher(); return c:key_ids()[1], tweak.value('s', 'v')") == ["from-host", "host secret"])
        let keyFile = fixture.folder.appendingPathComponent("app.tweak-keys")
        try TweakKeyFile.addGeneratedKey(to: keyFile, id: "file-key")
        let both = try fixture.run("""
            local c = tweak.cipher{ key_file = '\(keyFile.path)' }
            local ids = c:key_ids()
            return ids[1], ids[2], c:seal('x'):match('^es1:([^:]+):'), tweak.value('s', 'v')
            """)
        #expect(both == ["from-host", "file-key", "file-key", "host secret"])
    }

    @Test func keyFilesInsideTheHomeOrReadableByOthersAreRefused() throws {
        let fixture = try HostFixture()
        #expect(throws: LuaError.self) { try fixture.run("tweak.cipher()") }
        let home = fixture.host.configuration.home
        let inside = home.appendingPathComponent("app.tweak-keys")
        try TweakKeyFile.addGeneratedKey(to: inside)
        do {
            try fixture.run("tweak.cipher{ key_file = '\(inside.path)' }")
            Issue.record("a key file inside the home was accepted")
        } catch let error as LuaError {
            #expect(error.message.contains("option 'key_file'") && error.message.contains("outside the home"), "\(error.message)")
        }
        let open = fixture.folder.appendingPathComponent("open.tweak-keys")
        try TweakKeyFile.addGeneratedKey(to: open)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open.path)
        do {
            try fixture.run("tweak.cipher{ key_file = '\(open.path)' }")
            Issue.record("a key file others may read was accepted")
        } catch let error as LuaError {
            #expect(error.message.contains("chmod 600"), "\(error.message)")
            let contents = try String(contentsOf: open, encoding: .utf8)
            for line in contents.split(separator: "\n") where !line.hasPrefix("#") {
                for word in line.split(separator: " ") { #expect(!error.message.contains(word), "the error shows '\(word)'") }
            }
        }
        #expect(throws: LuaError.self) { try fixture.run("tweak.cipher{ key_file = 1 }") }
        #expect(throws: LuaError.self) { try fixture.run("tweak.cipher{ keyfile = 'x' }") }
        #expect(fixture.host.tweaks.cipher == nil, "a refused cipher is not installed")
    }

    @Test func theCipherOpensSealedValuesInEveryContainerAfterASwitch() throws {
        let fixture = try HostFixture()
        let keyFile = fixture.folder.appendingPathComponent("app.tweak-keys")
        let cipher = TweakCipher(keyring: try TweakKeyFile.addGeneratedKey(to: keyFile).ring)
        let json = try fixture.write("flags.json", try Self.sealedFlags(["token": "shipped secret"], with: cipher))
        let result = try fixture.run("""
            tweak.cipher{ key_file = '\(keyFile.path)' }
            tweak.cache(true)
            tweak.stack{ tweak.overrides(), tweak.json('\(json)', 'shipped') }
            local before = tweak.value('secrets', 'token')
            container.create('Staging')
            container.activate('Staging')
            local staging = tweak.value('secrets', 'token')
            tweak.set('secrets', 'token', 'staging plain')
            local overridden, info = tweak.get('secrets', 'token')
            container.activate('DEFAULT')
            return before, staging, overridden, info.sealed, tweak.value('secrets', 'token')
            """)
        #expect(result == ["shipped secret", "shipped secret", "staging plain", false, "shipped secret"])
    }
}
