import Foundation
import Preferences

/// What went wrong with application state or a dependency, naming the key, file or dependency involved
/// and saying what to do about it.
public enum AppStateError: Error, CustomStringConvertible, LocalizedError {
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
    /// Secure state `key` was used but the ``Application`` was given no ``SecureKeySource``.
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

    /// A message that says what failed and what to do about it.
    public var description: String {
        switch self {
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

    /// Same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
