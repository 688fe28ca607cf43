import Foundation
import Tweaks

/// A toy cipher for tests: XOR with a key, then base64. Real enough that a value cannot be read without
/// decrypting it, simple enough to write fixtures by hand.
enum TestCipher {
    static let key: [UInt8] = Array("envscript".utf8)

    static func encrypt(_ plain: String) -> String {
        Data(xor(Array(plain.utf8))).base64EncodedString()
    }

    struct BadCiphertext: Error {}

    static func decrypt(_ cipher: String) throws -> String {
        guard let data = Data(base64Encoded: cipher) else { throw BadCiphertext() }
        return String(decoding: xor(Array(data)), as: UTF8.self)
    }

    /// A decryptor for string ciphertexts whose plaintext is a JSON scalar: "42" becomes an int.
    static let decryptor: TweakDecryptor = { tweak in
        guard case .string(let cipher) = tweak.value else { throw BadCiphertext() }
        let plain = try decrypt(cipher)
        if let int = Int(plain) { return .int(int) }
        if plain == "true" || plain == "false" { return .bool(plain == "true") }
        return .string(plain)
    }

    private static func xor(_ bytes: [UInt8]) -> [UInt8] {
        bytes.enumerated().map { $0.element ^ key[$0.offset % key.count] }
    }
}
