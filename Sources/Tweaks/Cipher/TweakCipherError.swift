public import Foundation

/// What went wrong sealing or opening a tweak value, or reading its keys. Messages name the key id and
/// the file and line involved, never key material or plain text.
public enum TweakCipherError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// The text is not a sealed value: it does not start with a known format tag (`es1:`), or its parts
    /// are missing or not base64.
    case malformed(reason: String)
    /// The value is sealed in a format version this build does not know.
    case unsupportedVersion(String)
    /// The value was sealed with a key the cipher does not have.
    case unknownKey(id: String, known: [String])
    /// The value does not open with the key it names: the key under that id is another one, or the value
    /// was cut short or changed after sealing.
    case authenticationFailed(keyID: String)
    /// The opened plain text is not a tweak value (it was sealed by something other than the cipher).
    case invalidPlaintext(keyID: String)
    /// A key id that is empty, too long or holds characters other than letters, digits, `.`, `_` and `-`.
    case invalidKeyID(String)
    /// The cipher has no key at all.
    case noKeys
    /// A key file or key list cannot be used; `line` is 0 when the problem is with the whole file.
    case invalidKeys(origin: String, line: Int, reason: String)
    /// A key file others may write, or read while it holds keys other than demo keys.
    case keyFilePermissions(path: String, mode: UInt32)
    /// A key file could not be read or written.
    case keyFileIO(path: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case .malformed(let reason):
            return "not a sealed value: \(reason); a sealed value reads es1:KEY-ID:BASE64 (made by envscript tweak seal)"
        case .unsupportedVersion(let version):
            return "sealed in format '\(version)', which this version of EnvScript cannot open (it knows es1); update EnvScript"
        case .unknownKey(let id, let known):
            let have = known.isEmpty ? "it has none" : "it has " + known.map { "'\($0)'" }.joined(separator: ", ")
            return "sealed with key '\(id)', which the cipher does not have (\(have)); add that key to its key file or key list"
        case .authenticationFailed(let keyID):
            return "does not open with key '\(keyID)': the key under that id is not the one it was sealed with, or the value was cut short or changed after sealing"
        case .invalidPlaintext(let keyID):
            return "opened with key '\(keyID)' but holds no tweak value (JSON); seal values with envscript tweak seal"
        case .invalidKeyID(let id):
            return "'\(id)' is not a key id: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        case .noKeys:
            return "the cipher has no keys; make one with envscript tweak keygen"
        case .invalidKeys(let origin, let line, let reason):
            return line > 0 ? "\(origin):\(line): \(reason)" : "\(origin): \(reason)"
        case .keyFilePermissions(let path, let mode):
            let octal = String(mode & 0o777, radix: 8)
            if mode & 0o022 == 0 {
                return "key file \(path) may be read by others (mode \(octal)) and holds keys that are secrets; run: chmod 600 \(path)"
            }
            return "key file \(path) may be written by others (mode \(octal)); run: chmod 600 \(path)"
        case .keyFileIO(let path, let operation, let reason):
            return "cannot \(operation) key file \(path): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
