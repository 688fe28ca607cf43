import LuaBridge
import Tweaks

/// The Lua object `tweak.cipher{...}` returns: `cipher:key_ids()`, `cipher:seal(value [, key_id])` and
/// `cipher:open(text)`.
final class TweakCipherHandle {
    static let typeName = "tweak.cipher"

    let cipher: TweakCipher

    init(_ cipher: TweakCipher) {
        self.cipher = cipher
    }

    var luaValue: LuaValue { .object(LuaObject(self, typeName: Self.typeName)) }

    static func define(in lua: LuaState) {
        lua.defineObjectType(typeName, methods: [
            "key_ids": LuaFunction("cipher:key_ids") { call in
                let handle = try call.object(1, as: TweakCipherHandle.self, typeName: typeName)
                call.push(LuaValue.array(handle.cipher.keyring.ids.map(LuaValue.string)))
                return 1
            },
            "seal": LuaFunction("cipher:seal") { call in
                let handle = try call.object(1, as: TweakCipherHandle.self, typeName: typeName)
                let value = try JSONValue(argument: 2, of: call)
                let keyID = try call.argument(3, as: String?.self)
                do {
                    call.push(try handle.cipher.seal(value, keyID: keyID))
                } catch {
                    throw LuaScriptError("cipher:seal: \(error)")
                }
                return 1
            },
            "open": LuaFunction("cipher:open") { call in
                let handle = try call.object(1, as: TweakCipherHandle.self, typeName: typeName)
                let text = try call.argument(2, as: String.self)
                do {
                    call.push(try handle.cipher.open(text).luaValue)
                } catch {
                    throw LuaScriptError("cipher:open: \(error)")
                }
                return 1
            },
        ])
    }
}
