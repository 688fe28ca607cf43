import Crypto
import Foundation
import LuaBridge

/// The Lua module `crypto`: what a decryptor of secret flag values needs, from swift-crypto.
///
/// `base64_encode(s)`, `base64_decode(s)`, `sha256(s)` (hex), `aes_gcm_seal(key, plaintext)` and
/// `aes_gcm_open(key, sealed)`, where `key` is the base64 of 16, 24 or 32 bytes and `sealed` the
/// base64 of nonce, ciphertext and tag together (CryptoKit's `combined` form).
enum CryptoModule {
    static func make() -> LuaModule {
        var module = LuaModule("crypto")
        module.function("base64_encode") { call in
            call.push(LuaValue.string(Data(try bytes(call, 1)).base64EncodedString()))
            return 1
        }
        module.function("base64_decode") { call in
            call.push(text(try decodeBase64(call, 1, what: "text")))
            return 1
        }
        module.function("sha256") { call in
            let digest = SHA256.hash(data: try bytes(call, 1))
            call.push(digest.map { String(format: "%02x", $0) }.joined())
            return 1
        }
        module.function("aes_gcm_seal") { call in
            let key = try symmetricKey(call, 1)
            let sealed = try AES.GCM.seal(try bytes(call, 2), using: key)
            guard let combined = sealed.combined else { throw LuaScriptError("aes_gcm_seal: could not combine the sealed box") }
            call.push(combined.base64EncodedString())
            return 1
        }
        module.function("aes_gcm_open") { call in
            let key = try symmetricKey(call, 1)
            let sealed = try decodeBase64(call, 2, what: "sealed box")
            do {
                let box = try AES.GCM.SealedBox(combined: sealed)
                call.push(text(try AES.GCM.open(box, using: key)))
            } catch {
                throw LuaScriptError("aes_gcm_open: cannot decrypt: the key is wrong or the data is damaged")
            }
            return 1
        }
        return module
    }

    /// The bytes of a string argument.
    private static func bytes(_ call: LuaCall, _ position: Int32) throws -> [UInt8] {
        switch try call.value(position) {
        case .string(let text): return Array(text.utf8)
        case .bytes(let bytes): return bytes
        case let other: throw call.argumentError(position, "string expected, got \(other == .nil ? "no value" : other.typeName)")
        }
    }

    private static func decodeBase64(_ call: LuaCall, _ position: Int32, what: String) throws -> Data {
        guard let data = Data(base64Encoded: Data(try bytes(call, position))) else {
            throw call.argumentError(position, "\(what) is not valid base64")
        }
        return data
    }

    private static func symmetricKey(_ call: LuaCall, _ position: Int32) throws -> SymmetricKey {
        let data = try decodeBase64(call, position, what: "key")
        guard [16, 24, 32].contains(data.count) else {
            throw call.argumentError(position, "key must be the base64 of 16, 24 or 32 bytes, not \(data.count)")
        }
        return SymmetricKey(data: data)
    }

    /// A Lua string of `data`: text when it is UTF-8, raw bytes otherwise.
    private static func text(_ data: Data) -> LuaValue {
        String(validating: data, as: UTF8.self).map(LuaValue.string) ?? .bytes(Array(data))
    }
}
