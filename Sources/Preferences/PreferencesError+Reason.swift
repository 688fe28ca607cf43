extension PreferencesError {
    /// The failure with its details, one case per `Code`. `package`: the modules of this package match on
    /// it; an app uses `code` and `message`.
    package enum Reason: Sendable {
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
    }

    // The errors by the names of their reasons, so that `throw PreferencesError.corruptFile(...)` reads as the
    // reason it throws.

    package static func corruptFile(path: String, reason: String) -> Self { Self(.corruptFile(path: path, reason: reason)) }
    package static func readFailed(path: String, reason: String) -> Self { Self(.readFailed(path: path, reason: reason)) }
    package static func writeFailed(path: String, step: String, reason: String) -> Self { Self(.writeFailed(path: path, step: step, reason: reason)) }
    package static func unsupportedValue(key: String, reason: String) -> Self { Self(.unsupportedValue(key: key, reason: reason)) }
    package static func decodingFailed(key: String, path: String, reason: String) -> Self { Self(.decodingFailed(key: key, path: path, reason: reason)) }
    package static func invalidKey(key: String, reason: String) -> Self { Self(.invalidKey(key: key, reason: reason)) }
    package static func writeRefused(path: String, reason: String) -> Self { Self(.writeRefused(path: path, reason: reason)) }
}
