/// What opened a sealed tweak value.
package enum TweakOpener: Sendable, Hashable, CustomStringConvertible {
    /// The built-in cipher, with the key of this id.
    case cipher(keyID: String)
    /// The decryptor of the provider of this name.
    case providerDecryptor(provider: String)
    /// The decryptor of the whole stack (the manager's).
    case stackDecryptor

    /// "the cipher, key 'k2'", "the decryptor of provider 'vault'", "the stack's decryptor".
    package var description: String {
        switch self {
        case .cipher(let keyID): return "the cipher, key '\(keyID)'"
        case .providerDecryptor(let provider): return "the decryptor of provider '\(provider)'"
        case .stackDecryptor: return "the stack's decryptor"
        }
    }
}
