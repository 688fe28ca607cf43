public import Foundation

/// What went wrong sealing or opening a tweak value, or reading its keys. Messages name the key id and
/// the file and line involved, never key material or plain text.
///
/// Tell failures apart by their ``code``, compared with the static members of ``Code``
/// (`error.code == .malformed`); a release may add codes, so a `switch` over them needs a `default`.
public struct TweakCipherError: Error, CustomStringConvertible, LocalizedError, Sendable, Equatable {
    /// The failure with its details. `package`: the modules of this package match on it; an app uses
    /// ``code`` and ``message``.
    package let reason: Reason

    /// The error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What kind of failure it is.
    public var code: Code {
        switch reason {
        case .malformed: .malformed
        case .unsupportedVersion: .unsupportedVersion
        case .unknownKey: .unknownKey
        case .authenticationFailed: .authenticationFailed
        case .invalidPlaintext: .invalidPlaintext
        case .invalidKeyID: .invalidKeyID
        case .noKeys: .noKeys
        case .invalidKeys: .invalidKeys
        case .keyFilePermissions: .keyFilePermissions
        case .keyFileIO: .keyFileIO
        }
    }

    /// A message that says what failed and what to do about it.
    public var message: String {
        switch reason {
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

    /// Same as ``message``.
    public var description: String { message }

    /// Same as ``message``, for `localizedDescription`.
    public var errorDescription: String? { message }
}
