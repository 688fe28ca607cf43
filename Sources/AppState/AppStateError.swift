public import Foundation
import Preferences

/// What went wrong with application state or a dependency, naming the key, file or dependency involved
/// and saying what to do about it.
///
/// Tell failures apart by their ``code``, compared with the static members of
/// ``Code`` (`error.code == .unknownKey`); a release may add codes, so a `switch` over them
/// needs a `default`. ``key`` and ``underlyingError`` give the details a code has.
public struct AppStateError: Error, CustomStringConvertible, LocalizedError {
    /// The failure with its details. `package`: the engines and front-ends of this package match on it; an
    /// app uses ``code``, ``message`` and the public details.
    package let reason: Reason

    /// The error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What kind of failure it is.
    public var code: Code {
        switch reason {
        case .unknownKey: .unknownKey
        case .invalidKey: .invalidKey
        case .kindMismatch: .kindMismatch
        case .typeMismatch: .typeMismatch
        case .encodingFailed: .encodingFailed
        case .decodingFailed: .decodingFailed
        case .decryptionFailed: .decryptionFailed
        case .secureKeyMissing: .secureKeyMissing
        case .invalidSecureKey: .invalidSecureKey
        case .keyFilePermissions: .keyFilePermissions
        case .keyFileInvalid: .keyFileInvalid
        case .keyFileInsideHome: .keyFileInsideHome
        case .io: .io
        case .storage: .storage
        case .unknownDependency: .unknownDependency
        case .dependencyCycle: .dependencyCycle
        case .factoryFailed: .factoryFailed
        }
    }

    /// The state key, or the dependency's name, the failure is about (for a cycle, the dependency that
    /// needs itself); nil for the codes about the secure key or a file.
    public var key: String? {
        switch reason {
        case .unknownKey(let key), .invalidKey(let key, _), .kindMismatch(let key, _, _), .typeMismatch(let key, _, _),
             .encodingFailed(let key, _), .decodingFailed(let key, _, _), .decryptionFailed(let key, _),
             .secureKeyMissing(let key), .storage(let key, _), .unknownDependency(let key), .factoryFailed(let key, _):
            key
        case .dependencyCycle(let names): names.last
        case .invalidSecureKey, .keyFilePermissions, .keyFileInvalid, .keyFileInsideHome, .io: nil
        }
    }

    /// The error that caused this one: the store's (a `PreferencesError`) or the dependency factory's.
    /// Nil for the other codes.
    public var underlyingError: (any Error)? {
        switch reason {
        case .storage(_, let error): error
        case .factoryFailed(_, let underlying): underlying
        default: nil
        }
    }

    /// A message that says what failed and what to do about it.
    public var message: String {
        switch reason {
        case .unknownKey(let key):
            return "no state is declared under key '\(key)'; declare it first (state, storedState, fileState or secureState)"
        case .invalidKey(let key, let reason):
            return "invalid state key '\(key)': \(reason)"
        case .kindMismatch(let key, let declared, let requested):
            return "state '\(key)' is declared as \(declared) state, not \(requested) state; use another key or the declared kind"
        case .typeMismatch(let key, let declared, let requested):
            return "'\(key)' holds values of type \(declared), not \(requested); use the declared type or another key"
        case .encodingFailed(let key, let reason):
            return "cannot encode the value of '\(key)': \(reason)"
        case .decodingFailed(let key, let path, let reason):
            return "the stored value of '\(key)' in '\(path)' does not decode as the declared type (\(reason)); reset the state or fix the file"
        case .decryptionFailed(let key, let path):
            return "cannot decrypt secure state '\(key)' in '\(path)': the key in use is not the one it was written with, or the file is corrupt; restore the right key, or reset the state to drop the value"
        case .secureKeyMissing(let key):
            return "secure state '\(key)' needs an encryption key; create the Application with a secureKey (a key file outside the home, or a key from the host)"
        case .invalidSecureKey(let reason):
            return "the secure state key given by the host is unusable: \(reason); give a 128-, 192- or 256-bit key"
        case .keyFilePermissions(let path, let mode):
            return "the key file '\(path)' has mode \(String(mode & 0o7777, radix: 8)) and may be read by others; make it private with `chmod 600 '\(path)'`"
        case .keyFileInvalid(let path, let reason):
            return "the key file '\(path)' is unusable: \(reason); restore it from a backup, or move it away to start over with a new key (existing secure values are then lost)"
        case .keyFileInsideHome(let path, let home):
            return "the key file '\(path)' lies inside the application home '\(home)', where it would be swapped with the containers; keep it outside the home"
        case .io(let path, let operation, let reason):
            return "cannot \(operation) '\(path)': \(reason); check that the folder exists, has free space and is writable"
        case .storage(let key, let error):
            return "state '\(key)': \(error.description)"
        case .unknownDependency(let name):
            return "no dependency is registered under '\(name)'; register it before getting or overriding it"
        case .dependencyCycle(let names):
            return "dependency '\(names.last ?? "")' needs itself to be created (\(names.joined(separator: " -> "))); break the cycle, for example by resolving one of them lazily"
        case .factoryFailed(let name, let underlying):
            return "the factory of dependency '\(name)' failed: \(underlying)"
        }
    }

    /// Same as ``message``.
    public var description: String { message }

    /// Same as ``message``, for `localizedDescription`.
    public var errorDescription: String? { message }
}
