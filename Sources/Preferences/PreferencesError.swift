public import Foundation

/// What went wrong in a ``PreferencesStore`` or ``FileStore``, naming the file or key involved.
public enum PreferencesError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The file exists but is not a property list (or not the expected shape).
    case corruptFile(path: String, reason: String)
    /// The file could not be read for a reason other than being absent.
    case readFailed(path: String, reason: String)
    /// Writing the file failed at `step` (for example "fsync" or "rename"); the previous content is intact.
    case writeFailed(path: String, step: String, reason: String)
    /// A value could not be stored under `key` (for example a Codable value with no property-list form).
    case unsupportedValue(key: String, reason: String)
    /// The value stored under `key` in `path` does not decode as the requested type.
    case decodingFailed(key: String, path: String, reason: String)
    /// A ``FileStore`` key that cannot name a file.
    case invalidKey(key: String, reason: String)
    /// A write was not made because the data it would change no longer exists where it was read (for
    /// example another process deleted the container); `reason` says what happened.
    case writeRefused(path: String, reason: String)

    /// A message that says what failed and what to do about it.
    public var description: String {
        switch self {
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

    /// Same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
