import Crypto
import Foundation

extension JSONValue {
    /// The text, when this is a string in the cipher's sealed format (of any version): what
    /// ``TweakCipher`` opens.
    package var sealedText: String? {
        if case .string(let text) = self, TweakCipher.isSealedText(text) { return text }
        return nil
    }
}

/// The built-in cipher of secret flag values: seals a `JSONValue` into text a tweaks file can hold,
/// and opens it again, with AES-256-GCM from swift-crypto and keys that stay outside the containers.
///
/// Give one to a ``TweakManager`` (``TweakManager/cipher``) and its stack opens every value marked
/// `"Encrypted": true` whose text is in the sealed format (`es1:KEY-ID:BASE64`, see *Secret flags* in the EnvScript guides), with no
/// decryption closure to write; a hand-written ``TweakDecryptor`` still opens the others.
///
/// Opening never returns unauthenticated bytes: a wrong key, an unknown key id, a truncated or changed
/// value each throw a ``TweakCipherError`` naming the key id.
public struct TweakCipher: Sendable {
    /// The keys: each opens what it sealed, the last one seals.
    public let keyring: TweakCipherKeyring

    /// A cipher over `keyring`.
    public init(keyring: TweakCipherKeyring) {
        self.keyring = keyring
    }

    /// Whether `text` is in the sealed format (of any version), so that it is the cipher's to open.
    package static func isSealedText(_ text: String) -> Bool {
        SealedTweakText.looksSealed(text)
    }

    /// The id of the key `text` was sealed with.
    ///
    /// - Throws: ``TweakCipherError/Code/malformed`` or ``TweakCipherError/Code/unsupportedVersion``.
    package static func keyID(of text: String) throws -> String {
        try SealedTweakText(parsing: text).keyID
    }

    /// Seals `value` with the key `keyID`, or with the sealing key (the last one).
    ///
    /// - Throws: ``TweakCipherError/Code/noKeys`` or ``TweakCipherError/Code/unknownKey``.
    public func seal(_ value: JSONValue, keyID: String? = nil) throws -> String {
        let key: TweakCipherKey
        if let keyID {
            guard let named = keyring.key(id: keyID) else {
                throw TweakCipherError.unknownKey(id: keyID, known: keyring.ids)
            }
            key = named
        } else {
            guard let last = keyring.sealingKey else { throw TweakCipherError.noKeys }
            key = last
        }
        let plaintext = Data(value.jsonText.utf8)
        let header = SealedTweakText(keyID: key.id, payload: Data()).header
        let box = try AES.GCM.seal(plaintext, using: key.material.key, authenticating: header)
        // A box made with the default 12-byte nonce always has its combined form.
        return SealedTweakText(keyID: key.id, payload: box.combined!).text
    }

    /// Opens a sealed value.
    ///
    /// - Throws: ``TweakCipherError``: ``TweakCipherError/Code/malformed``,
    ///   ``TweakCipherError/Code/unsupportedVersion``, ``TweakCipherError/Code/unknownKey``,
    ///   ``TweakCipherError/Code/authenticationFailed`` or ``TweakCipherError/Code/invalidPlaintext``.
    public func open(_ text: String) throws -> JSONValue {
        try openReportingKey(text).value
    }

    /// Opens a sealed value (see ``open(_:)``) and says which key opened it.
    package func openReportingKey(_ text: String) throws -> (value: JSONValue, keyID: String) {
        let sealed = try SealedTweakText(parsing: text)
        guard let key = keyring.key(id: sealed.keyID) else {
            throw TweakCipherError.unknownKey(id: sealed.keyID, known: keyring.ids)
        }
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.payload)
            plaintext = try AES.GCM.open(box, using: key.material.key, authenticating: sealed.header)
        } catch {
            throw TweakCipherError.authenticationFailed(keyID: sealed.keyID)
        }
        // The strict reader keeps a double sealed as `2.0` a double; a flag's value holds no null.
        guard let value = try? JSONValue(jsonText: plaintext), !value.containsNull else {
            throw TweakCipherError.invalidPlaintext(keyID: sealed.keyID)
        }
        return (value, sealed.keyID)
    }

    /// The decryptor of this cipher, for a provider that takes a closure.
    public var decryptor: TweakDecryptor {
        { tweak in
            guard case .string(let text) = tweak.value else {
                throw TweakCipherError.malformed(reason: "the value is \(TweakError.withArticle(tweak.value.typeName)), not text")
            }
            return try open(text)
        }
    }
}
