import Foundation

/// What went wrong in a ``PreferencesStore`` or a file store (the files of file state), naming the file or
/// key involved.
///
/// Tell failures apart by their ``code``, compared with the static members of ``Code``
/// (`error.code == .corruptFile`); a release may add codes, so a `switch` over them needs a `default`.
package struct PreferencesError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The failure with its details. `package`: the modules of this package match on it; an app uses
    /// ``code`` and ``message``.
    package let reason: Reason

    /// The error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What kind of failure it is.
    package var code: Code {
        switch reason {
        case .corruptFile: .corruptFile
        case .readFailed: .readFailed
        case .writeFailed: .writeFailed
        case .unsupportedValue: .unsupportedValue
        case .decodingFailed: .decodingFailed
        case .invalidKey: .invalidKey
        case .writeRefused: .writeRefused
        }
    }

    /// A message that says what failed and what to do about it.
    package var message: String {
        switch reason {
        case .corruptFile(let path, let reason):
            return "preferences file '\(path)' is corrupt: \(reason); fix it or delete it to start from empty preferences"
        case .readFailed(let path, let reason):
            return "cannot read '\(path)': \(reason); check that the file and its folder are readable"
        case .writeFailed(let path, let step, let reason):
            return "cannot write '\(path)' (\(step) failed: \(reason)); the previous content is unchanged — check free space and permissions"
        case .unsupportedValue(let key, let reason):
            return "cannot store a value under key '\(key)': \(reason)"
        case .decodingFailed(let key, let path, let reason):
            return "the value of key '\(key)' in '\(path)' does not decode as requested: \(reason)"
        case .invalidKey(let key, let reason):
            return "invalid file store key '\(key)': \(reason)"
        case .writeRefused(let path, let reason):
            return "refused to write '\(path)': \(reason)"
        }
    }

    /// Same as ``message``.
    package var description: String { message }

    /// Same as ``message``, for `localizedDescription`.
    package var errorDescription: String? { message }
}
