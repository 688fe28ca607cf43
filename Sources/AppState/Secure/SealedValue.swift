import Crypto
import Foundation

/// The on-disk form of a secure state value: a 4-byte format tag, then AES-GCM's combined box (12-byte
/// nonce, ciphertext, 16-byte tag).
///
/// The state's key is authenticated with the value, so a sealed file copied under another key's name
/// fails to open instead of passing for that key's value.
enum SealedValue {
    /// "ESS1": EnvScript secure state, format 1.
    static let formatTag = Data("ESS1".utf8)
    private static let nonceAndTagSize = 12 + 16

    /// Encrypts `plaintext` for state `stateKey`.
    static func seal(_ plaintext: Data, stateKey: String, with key: SealingKey) throws -> Data {
        do {
            let box = try AES.GCM.seal(plaintext, using: key.key, authenticating: associatedData(stateKey))
            guard let combined = box.combined else {
                throw AppStateError.encodingFailed(key: stateKey, reason: "AES-GCM gave no combined box")
            }
            return formatTag + combined
        } catch let error as AppStateError {
            throw error
        } catch {
            throw AppStateError.encodingFailed(key: stateKey, reason: "encryption failed: \(error)")
        }
    }

    /// Decrypts what ``seal(_:stateKey:with:)`` wrote.
    ///
    /// - Throws: ``AppStateError/Code/decryptionFailed`` for a wrong key or a damaged file; never
    ///   returns unauthenticated bytes.
    static func open(_ sealed: Data, stateKey: String, path: String, with key: SealingKey) throws -> Data {
        guard sealed.count >= formatTag.count + nonceAndTagSize, sealed.prefix(formatTag.count) == formatTag else {
            throw AppStateError.decryptionFailed(key: stateKey, path: path)
        }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.dropFirst(formatTag.count))
            return try AES.GCM.open(box, using: key.key, authenticating: associatedData(stateKey))
        } catch {
            throw AppStateError.decryptionFailed(key: stateKey, path: path)
        }
    }

    private static func associatedData(_ stateKey: String) -> Data {
        Data("EnvScript.SecureState:\(stateKey)".utf8)
    }
}
