import Crypto
package import Foundation

/// One key of a ``TweakCipher``: 256 random bits under an id that sealed values name.
///
/// A *demo* key is one whose secrecy does not matter (it is committed beside examples); it is marked so
/// in its key file, may live in a file others can read, and sealing with it is reported as a warning by
/// the command line.
public struct TweakCipherKey: Sendable, Equatable {
    /// The id sealed values name: 1 to 64 letters, digits, `.`, `_` and `-`, starting with a letter or digit.
    public let id: String
    /// Whether this is a demo key, not a secret.
    package let isDemo: Bool
    let material: KeyMaterial

    /// The size of every key, in bytes (AES-256).
    package static let byteCount = 32

    /// A key from its 32 bytes.
    ///
    /// - Throws: ``TweakCipherError/Code/invalidKeyID``, or ``TweakCipherError/Code/invalidKeys``
    ///   when `bytes` is not 32 bytes long.
    package init(id: String, bytes: some ContiguousBytes, isDemo: Bool = false) throws {
        try Self.validate(id: id)
        let key = SymmetricKey(data: bytes)
        guard key.bitCount == Self.byteCount * 8 else {
            throw TweakCipherError.invalidKeys(
                origin: "key '\(id)'", line: 0, reason: "a key has \(Self.byteCount) bytes, not \(key.bitCount / 8)")
        }
        self.id = id
        self.isDemo = isDemo
        self.material = KeyMaterial(key)
    }

    /// A new random key.
    public static func generate(id: String, isDemo: Bool = false) throws -> TweakCipherKey {
        try TweakCipherKey(id: id, bytes: SymmetricKey(size: .bits256), isDemo: isDemo)
    }

    /// The key's bytes in base64, as key files and key lists hold them.
    package var base64: String {
        material.key.withUnsafeBytes { Data($0).base64EncodedString() }
    }

    /// Checks a key id.
    package static func validate(id: String) throws {
        let allowed = id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        guard allowed, (1...64).contains(id.utf8.count), let first = id.unicodeScalars.first,
              first.properties.isAlphabetic || ("0"..."9").contains(first)
        else { throw TweakCipherError.invalidKeyID(id) }
    }

    public static func == (lhs: TweakCipherKey, rhs: TweakCipherKey) -> Bool {
        lhs.id == rhs.id && lhs.isDemo == rhs.isDemo && lhs.material.key == rhs.material.key
    }
}

/// A `SymmetricKey` that may cross threads: an immutable value whose bytes are zeroed when freed, which
/// does not declare `Sendable` in the swift-crypto versions we support.
final class KeyMaterial: @unchecked Sendable {
    let key: SymmetricKey

    init(_ key: SymmetricKey) {
        self.key = key
    }
}
