public import Crypto
public import Foundation

/// Where the key that encrypts secure state comes from. The key always lives outside the containers, so
/// a container's files never carry what unlocks them.
public struct SecureKeySource: Sendable {
    enum Origin: Sendable {
        case file(URL)
        case key(SealingKey)
    }

    let origin: Origin

    /// A key file: 32 random bytes with mode 0600, created on first use when missing.
    ///
    /// The file must lie outside the application's home (the containers are swapped there) and must be
    /// readable by its owner only; otherwise secure state fails with
    /// ``AppStateError/Code/keyFileInsideHome`` or ``AppStateError/Code/keyFilePermissions``.
    public static func keyFile(_ url: URL) -> SecureKeySource {
        SecureKeySource(origin: .file(url))
    }

    /// A key given by the host (from a keychain, an environment secret, a hardware store, and so on).
    ///
    /// AES-GCM takes 128-, 192- and 256-bit keys; other sizes fail on first use with
    /// ``AppStateError/Code/invalidSecureKey``.
    public static func key(_ key: SymmetricKey) -> SecureKeySource {
        SecureKeySource(origin: .key(SealingKey(key)))
    }

    /// A key given by the host as raw bytes (16, 24 or 32 of them).
    package static func keyBytes(_ bytes: Data) -> SecureKeySource {
        key(SymmetricKey(data: bytes))
    }
}

/// A `SymmetricKey` that may cross threads.
///
/// `SymmetricKey` is an immutable value (its bytes are copied on write and zeroed when freed) but does not
/// declare `Sendable` in the swift-crypto versions we support; nothing here ever mutates it.
final class SealingKey: @unchecked Sendable {
    let key: SymmetricKey

    init(_ key: SymmetricKey) {
        self.key = key
    }
}
