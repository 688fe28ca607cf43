extension ArchiveError {
    /// The failure with its details, one case per `Code`. `package`: the modules of this package match on
    /// it; an app uses `code` and `message`.
    package enum Reason: Sendable, Equatable {
        /// The file is not a zip archive this version can read (missing, truncated or damaged).
        case unreadable(archive: String, reason: String)
        /// The zip archive holds no usable manifest.
        case badManifest(archive: String, reason: String)
        /// An entry is refused; `reason` says why.
        case refusedEntry(archive: String, entry: String, reason: String)
        /// The archive is past a limit of the import.
        case overLimit(archive: String, reason: String)
        /// The archive cannot be written where it was asked for: `path` names a folder, or a folder that
        /// does not exist.
        case unwritable(path: String, reason: String)
        /// Writing the archive failed: the system refused a write (no space left on the device, a read-only
        /// file system, no permission...); `reason` says what happened, in words. Nothing at `path` changed:
        /// no partial archive was left there.
        case writeFailed(path: String, reason: String)
    }

    // The errors by the names of their reasons, so that `throw ArchiveError.unreadable(...)` reads as the
    // reason it throws.

    package static func unreadable(archive: String, reason: String) -> Self { Self(.unreadable(archive: archive, reason: reason)) }
    package static func badManifest(archive: String, reason: String) -> Self { Self(.badManifest(archive: archive, reason: reason)) }
    package static func refusedEntry(archive: String, entry: String, reason: String) -> Self { Self(.refusedEntry(archive: archive, entry: entry, reason: reason)) }
    package static func overLimit(archive: String, reason: String) -> Self { Self(.overLimit(archive: archive, reason: reason)) }
    package static func unwritable(path: String, reason: String) -> Self { Self(.unwritable(path: path, reason: reason)) }
    package static func writeFailed(path: String, reason: String) -> Self { Self(.writeFailed(path: path, reason: reason)) }
}
