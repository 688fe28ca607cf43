import Crypto
import Foundation
import Locking

/// Resolves the ``SecureKeySource`` of an ``Application`` once, on first use of secure state, and keeps
/// the key in memory. A failure is not kept: the next use tries again, so fixing a key file's mode
/// needs no restart.
final class SecureKeyStore: Sendable {
    private let source: SecureKeySource?
    private let home: URL
    private let cached = Locked<SealingKey?>(nil)

    init(source: SecureKeySource?, home: URL) {
        self.source = source
        self.home = home
    }

    /// The key for sealing and opening secure state `stateKey` (named in the error when there is none).
    func key(forState stateKey: String) throws -> SealingKey {
        try cached.withLock { cached in
            if let cached { return cached }
            guard let source else { throw AppStateError.secureKeyMissing(key: stateKey) }
            let key: SealingKey
            switch source.origin {
            case .file(let url):
                key = SealingKey(try SecureKeyFile.loadOrCreate(at: url, home: home))
            case .key(let given):
                guard SecureKeyFile.validSizes.contains(given.key.bitCount / 8) else {
                    throw AppStateError.invalidSecureKey(reason: "it has \(given.key.bitCount) bits")
                }
                key = given
            }
            cached = key
            return key
        }
    }
}
