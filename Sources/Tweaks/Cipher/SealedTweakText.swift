import Foundation

/// The text of a sealed tweak value, format version 1:
///
/// ```
/// es1:KEY-ID:BASE64
/// ```
///
/// `BASE64` (standard alphabet, padded) holds AES-256-GCM's 12-byte nonce, the ciphertext and the
/// 16-byte tag, in that order. The plain text is the value's JSON (`"red"`, `42`, `{"columns": 3}`), so
/// a sealed value keeps its type. The header `es1:KEY-ID:` is authenticated with the ciphertext: a
/// changed key id or version fails to open like a changed byte of ciphertext does.
struct SealedTweakText: Equatable {
    /// The format version this build writes and reads.
    static let version = "es1"
    static let nonceSize = 12
    static let tagSize = 16

    let version: String
    let keyID: String
    let payload: Data

    /// Whether `text` claims to be a sealed value (`es` and digits, then `:`), so that it goes to the
    /// cipher rather than to a hand-written decryptor.
    static func looksSealed(_ text: String) -> Bool {
        var digits = 0
        var iterator = text.utf8.makeIterator()
        guard iterator.next() == UInt8(ascii: "e"), iterator.next() == UInt8(ascii: "s") else { return false }
        while let byte = iterator.next() {
            if byte == UInt8(ascii: ":") { return digits > 0 }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
            digits += 1
        }
        return false
    }

    /// The header that is authenticated with the ciphertext.
    var header: Data { Data("\(version):\(keyID):".utf8) }

    /// The text form.
    var text: String { "\(version):\(keyID):\(payload.base64EncodedString())" }

    init(keyID: String, payload: Data) {
        self.version = Self.version
        self.keyID = keyID
        self.payload = payload
    }

    /// Splits a sealed value into its parts.
    ///
    /// - Throws: ``TweakCipherError/Code/malformed`` or ``TweakCipherError/Code/unsupportedVersion``.
    init(parsing text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, Self.looksSealed(text) else {
            throw TweakCipherError.malformed(reason: "expected three parts separated by ':'")
        }
        guard parts[0] == Self.version else { throw TweakCipherError.unsupportedVersion(String(parts[0])) }
        let keyID = String(parts[1])
        do {
            try TweakCipherKey.validate(id: keyID)
        } catch {
            throw TweakCipherError.malformed(reason: "the key id is not valid")
        }
        guard let payload = Data(base64Encoded: String(parts[2])) else {
            throw TweakCipherError.malformed(reason: "the part after the key id '\(keyID)' is not base64 (was it cut short?)")
        }
        guard payload.count >= Self.nonceSize + Self.tagSize else {
            throw TweakCipherError.malformed(reason: "sealed with key '\(keyID)' but only \(payload.count) bytes long, too short to hold a nonce and a tag (was it cut short?)")
        }
        self.version = Self.version
        self.keyID = keyID
        self.payload = payload
    }
}
