public import Foundation

/// Why an archive could not be written, read or imported. Each message names the archive and, where
/// one is to blame, the entry; nothing was created in the home.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
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

    public var description: String {
        switch self {
        case .unreadable(let archive, let reason):
            return "'\(archive)' is not a readable container archive: \(reason)"
        case .badManifest(let archive, let reason):
            return "'\(archive)' has no usable \(ArchiveManifest.entryName): \(reason); was it made by 'envscript container export'?"
        case .refusedEntry(let archive, let entry, let reason):
            return "'\(archive)': entry '\(entry)' is refused: \(reason); nothing was imported"
        case .overLimit(let archive, let reason):
            return "'\(archive)' is refused: \(reason); nothing was imported"
        case .unwritable(let path, let reason):
            return "cannot write the archive '\(path)': \(reason)"
        case .writeFailed(let path, let reason):
            return "could not write the archive '\(path)': \(reason); nothing at that path was changed: fix the cause, or write the archive elsewhere"
        }
    }

    public var errorDescription: String? { description }
}
