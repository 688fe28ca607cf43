package import Preferences

extension AppStateError {
    /// The failure with its details, one case per `Code`. `package`: the engines and front-ends of this
    /// package match on it; an app uses `code`, `message` and the public details.
    package enum Reason: Sendable {
        /// No state was declared under `key`.
        case unknownKey(String)
        /// A key may not be used: it is empty, or it cannot name a file.
        case invalidKey(key: String, reason: String)
        /// `key` was declared as one kind of state and is now asked for as another.
        case kindMismatch(key: String, declared: StateKind, requested: StateKind)
        /// `key` (a state key or a dependency name) holds values of type `declared`, not `requested`.
        case typeMismatch(key: String, declared: String, requested: String)
        /// A value could not be encoded for storage under `key`.
        case encodingFailed(key: String, reason: String)
        /// The stored value of `key` in `path` does not decode as the declared type.
        case decodingFailed(key: String, path: String, reason: String)
        /// The sealed value of secure state `key` in `path` does not open with the key in use: either the key
        /// is not the one it was written with, or the file is corrupt.
        case decryptionFailed(key: String, path: String)
        /// Secure state `key` was used but the `Application` was given no `SecureKeySource`.
        case secureKeyMissing(key: String)
        /// The key given by the host cannot be used for AES-GCM.
        case invalidSecureKey(reason: String)
        /// The secure key file at `path` may be read by others (its mode is `mode`).
        case keyFilePermissions(path: String, mode: UInt32)
        /// The secure key file at `path` is unusable (not a regular file, wrong length, unreadable).
        case keyFileInvalid(path: String, reason: String)
        /// The secure key file lies inside the application's home, where it would be swapped with the
        /// containers and sit next to the data it protects.
        case keyFileInsideHome(path: String, home: String)
        /// Reading or writing the file at `path` failed during `operation`.
        case io(path: String, operation: String, reason: String)
        /// The preferences store or file store holding `key` failed.
        case storage(key: String, PreferencesError)
        /// No dependency is registered under `name`.
        case unknownDependency(String)
        /// Creating dependency `names.last` needs itself, through the chain `names`.
        case dependencyCycle([String])
        /// The factory of dependency `name` threw `underlying`.
        case factoryFailed(name: String, underlying: any Error)
    }

    // The errors by the names of their reasons, so that `throw AppStateError.unknownKey(key)` reads as
    // the reason it throws.

    package static func unknownKey(_ key: String) -> Self { Self(.unknownKey(key)) }
    package static func invalidKey(key: String, reason: String) -> Self { Self(.invalidKey(key: key, reason: reason)) }
    package static func kindMismatch(key: String, declared: StateKind, requested: StateKind) -> Self {
        Self(.kindMismatch(key: key, declared: declared, requested: requested))
    }
    package static func typeMismatch(key: String, declared: String, requested: String) -> Self {
        Self(.typeMismatch(key: key, declared: declared, requested: requested))
    }
    package static func encodingFailed(key: String, reason: String) -> Self { Self(.encodingFailed(key: key, reason: reason)) }
    package static func decodingFailed(key: String, path: String, reason: String) -> Self {
        Self(.decodingFailed(key: key, path: path, reason: reason))
    }
    package static func decryptionFailed(key: String, path: String) -> Self { Self(.decryptionFailed(key: key, path: path)) }
    package static func secureKeyMissing(key: String) -> Self { Self(.secureKeyMissing(key: key)) }
    package static func invalidSecureKey(reason: String) -> Self { Self(.invalidSecureKey(reason: reason)) }
    package static func keyFilePermissions(path: String, mode: UInt32) -> Self { Self(.keyFilePermissions(path: path, mode: mode)) }
    package static func keyFileInvalid(path: String, reason: String) -> Self { Self(.keyFileInvalid(path: path, reason: reason)) }
    package static func keyFileInsideHome(path: String, home: String) -> Self { Self(.keyFileInsideHome(path: path, home: home)) }
    package static func io(path: String, operation: String, reason: String) -> Self {
        Self(.io(path: path, operation: operation, reason: reason))
    }
    /// `@usableFromInline`: a stored state's inlinable write throws it.
    package static func storage(key: String, _ error: PreferencesError) -> Self { Self(.storage(key: key, error)) }
    package static func unknownDependency(_ name: String) -> Self { Self(.unknownDependency(name)) }
    package static func dependencyCycle(_ names: [String]) -> Self { Self(.dependencyCycle(names)) }
    package static func factoryFailed(name: String, underlying: any Error) -> Self {
        Self(.factoryFailed(name: name, underlying: underlying))
    }
}
