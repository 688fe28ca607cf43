import Crypto
import EnvScript
import Foundation
import LuaBridge
import Testing
import Tweaks

/// The `tweak` module against a real host: stacks declared in Lua, Lua providers and decryptors.
@Suite struct TweakModuleTests {
    static let flagsJSON = """
        {
          "checkout": {
            "color": { "Title": "Button colour", "Group": "UI", "Value": "blue" },
            "limit": { "Value": 3 },
            "checkout": { "Value": true }
          }
        }
        """

    @Test func theStackDecidesAndReorderingChangesTheAnswer() throws {
        let fixture = try HostFixture()
        let json = try fixture.write("flags.json", Self.flagsJSON)
        try fixture.run("""
            local file = tweak.json('\(json)', 'file')
            local mine = tweak.ephemeral({ checkout = { color = 'green' } }, 'mine')
            tweak.stack{ mine, file }
            """)
        #expect(try fixture.run("return tweak.get('checkout', 'color')") == ["green", [
            "feature": "checkout", "variable": "color", "value": "green", "source": "mine", "encrypted": false, "sealed": false,
            "reason": "STATIC", "failures": [],
        ]])
        #expect(try fixture.run("return tweak.value('checkout', 'limit', 0)") == [3])
        // Lower priority for the ephemeral provider: the file answers now, with its metadata.
        let reordered = try fixture.run("""
            tweak.stack{ tweak.json('\(json)', 'file'), tweak.ephemeral({ checkout = { color = 'green' } }, 'mine') }
            local value, info = tweak.get('checkout', 'color')
            return value, info.source, info.title, info.group
            """)
        #expect(reordered == ["blue", "file", "Button colour", "UI"])
        #expect(try fixture.host.tweaks.value("checkout", "color", as: String.self) == "blue")
    }

    @Test func missingTypeMismatchAndEnabled() throws {
        let fixture = try HostFixture()
        let json = try fixture.write("flags.json", Self.flagsJSON)
        try fixture.run("tweak.stack{ tweak.json('\(json)') }")
        #expect(try fixture.run("return tweak.get('checkout', 'nothing')") == [.nil])
        #expect(try fixture.run("return tweak.value('checkout', 'nothing', 'fallback')") == ["fallback"])
        #expect(try fixture.run("return tweak.enabled('checkout'), tweak.enabled('unknown')") == [true, false])
        let mismatch = try #require(throws: LuaError.self) { try fixture.run("return tweak.value('checkout', 'limit', true)") }
        #expect(mismatch.message.contains("tweak checkout.limit is a number (3), but the default given is a boolean"))
    }

    @Test func aProviderWrittenInLua() throws {
        let fixture = try HostFixture()
        try fixture.run("""
            calls = 0
            tweak.stack{
              tweak.provider{
                name = 'scripted',
                get = function(feature, variable)
                  calls = calls + 1
                  if variable == 'plain' then return 41 + 1 end
                  if variable == 'rich' then return { value = 'on', title = 'Rich', group = 'G' } end
                  if variable == 'broken' then error('backend down') end
                  return nil
                end,
                list = function() return { { feature = 'f', variable = 'plain', value = 42 } } end,
              },
              tweak.ephemeral({ f = { broken = 'from below', missing = 'below' } }, 'below'),
            }
            """)
        #expect(try fixture.run("return tweak.get('f', 'plain')").first == 42)
        #expect(try fixture.run("local v, info = tweak.get('f', 'rich') return v, info.title, info.source") == ["on", "Rich", "scripted"])
        // A failing provider is reported, not mistaken for a missing tweak.
        let broken = try fixture.run("local v, info = tweak.get('f', 'broken') return v, info.source, info.failures[1]")
        #expect(broken[0] == "from below")
        #expect(broken[1] == "below")
        #expect(broken[2].stringValue?.contains("backend down") == true)
        #expect(try fixture.host.tweaks.lookup(feature: "f", variable: "missing").source == "below")
        // Swift reaches the Lua provider too, and its list.
        #expect(try fixture.host.tweaks.value("f", "plain", as: Int.self) == 42)
        #expect(fixture.host.tweaks.list().tweaks.map(\.variable).contains("plain"))
        let bad = try #require(throws: LuaError.self) { try fixture.run("tweak.provider{ name = 'x' }") }
        #expect(bad.message.contains("bad argument #1 to 'tweak.provider' (field 'get' must be a function(feature, variable[, ctx]))"))
    }

    @Test func theDecryptorReachesEveryProviderIncludingLaterOnes() throws {
        let fixture = try HostFixture()
        let json = try fixture.write("secret.json", """
            { "api": { "token": { "Value": "terces", "Encrypted": true } } }
            """)
        try fixture.run("""
            tweak.decryptor(function(t) return t.value:reverse() end)
            tweak.stack{ tweak.json('\(json)') }
            """)
        #expect(try fixture.run("return tweak.get('api', 'token')").first == "secret")
        let noDecryptor = try #require(throws: LuaError.self) { try fixture.run("tweak.decryptor(nil) return tweak.get('api', 'token')") }
        #expect(noDecryptor.message.contains("api.token"))
        // A provider's own decryptor wins over the stack's.
        try fixture.run("""
            tweak.decryptor(function(t) return 'opened by the stack' end)
            tweak.stack{
              tweak.provider{ name = 'vault', get = function() return { value = 'x', encrypted = true } end,
                              decryptor = function(t) return 'opened by vault' end },
              tweak.json('\(json)'),
            }
            """)
        #expect(try fixture.run("return tweak.get('api', 'token')").first == "opened by vault")
        #expect(try fixture.run("return tweak.get('api', 'other')").first == "opened by vault")
        try fixture.run("tweak.stack{ tweak.json('\(json)') }")
        #expect(try fixture.run("return tweak.get('api', 'token')").first == "opened by the stack")
    }

    @Test func aLuaDecryptorOpensARealAESGCMValue() throws {
        let fixture = try HostFixture()
        let key = SymmetricKey(size: .bits256)
        let keyText = key.withUnsafeBytes { Data($0).base64EncodedString() }
        let sealed = try #require(try AES.GCM.seal(Data("s3cr3t-token".utf8), using: key).combined).base64EncodedString()
        let json = try fixture.write("secret.json", """
            { "api": { "token": { "Title": "API token", "Value": "\(sealed)", "Encrypted": true } } }
            """)
        try fixture.run("""
            tweak.stack{ tweak.overrides(), tweak.json('\(json)', 'secrets') }
            tweak.decryptor(function(t) return crypto.aes_gcm_open('\(keyText)', t.value) end)
            """)
        #expect(try fixture.host.tweaks.value("api", "token", as: String.self) == "s3cr3t-token")
        #expect(try fixture.run("local v, info = tweak.get('api', 'token') return v, info.encrypted") == ["s3cr3t-token", false])
        // A wrong key fails clearly instead of yielding garbage.
        let wrongKey = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
        try fixture.run("tweak.decryptor(function(t) return crypto.aes_gcm_open('\(wrongKey)', t.value) end)")
        let error = try #require(throws: LuaError.self) { try fixture.run("return tweak.get('api', 'token')") }
        #expect(error.message.contains("the key is wrong or the data is damaged"))
        // Round trip inside Lua.
        #expect(try fixture.run("return crypto.aes_gcm_open('\(keyText)', crypto.aes_gcm_seal('\(keyText)', 'hello'))") == ["hello"])
        #expect(try fixture.run("return crypto.sha256('abc')") == ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"])
        #expect(try fixture.run("return crypto.base64_decode(crypto.base64_encode('a\\0b'))") == ["a\0b"])
    }

    @Test func setDeleteAndChangeHandlers() throws {
        let fixture = try HostFixture()
        try fixture.run("""
            seen = {}
            handle = tweak.on_change(function(t) table.insert(seen, t.feature .. '.' .. t.variable .. '=' .. tostring(t.value)) end)
            tweak.set('ui', 'dark', true)
            tweak.set('ui', 'size', 12)
            tweak.delete('ui', 'size')
            handle:remove()
            tweak.set('ui', 'after', 'x')
            """)
        #expect(try fixture.run("return table.concat(seen, ',')") == ["ui.dark=true,ui.size=12,ui.size=nil"])
        #expect(try fixture.host.tweaks.value("ui", "dark", as: Bool.self))
        let badValue = try #require(throws: LuaError.self) { try fixture.run("tweak.set('ui', 'x', print)") }
        #expect(badValue.message.contains("bad argument #3 to 'tweak.set' (a function is not a tweak value"), "\(badValue.message)")
        // Overrides are stored in the home's preferences, so they survive the host.
        fixture.host.close()
        let plist = fixture.folder.appendingPathComponent("home/Library/Preferences/tests.plist")
        #expect(FileManager.default.fileExists(atPath: plist.path))
    }

    @Test func stackEntriesMustBeProviders() throws {
        let fixture = try HostFixture()
        let error = try #require(throws: LuaError.self) { try fixture.run("tweak.stack{ tweak.overrides(), 'json' }") }
        #expect(error.message.contains("entry 2 is a string, not a provider"))
        let duplicate = try #require(throws: LuaError.self) { try fixture.run("tweak.stack{ tweak.overrides(), tweak.overrides() }") }
        #expect(duplicate.message.contains("two providers are named 'overrides'"))
        let badJSON = try fixture.write("bad.json", "{ \"a\": { \"b\": { \"Value\": } } }")
        let json = try #require(throws: LuaError.self) { try fixture.run("tweak.json('\(badJSON)')") }
        #expect(json.message.contains("bad.json"))
        #expect(json.message.contains("bad.json:1:26: unexpected '}', expected a value"))
    }
}
