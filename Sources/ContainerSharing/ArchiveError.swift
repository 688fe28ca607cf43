public import Foundation

/// Why an archive could not be written, read or imported. Each message names the archive and, where
/// one is to blame, the entry; nothing was created in the home.
///
/// Tell failures apart by their ``code``, compared with the static members of ``Code``
/// (`error.code == .unreadable`); a release may add codes, so a `switch` over them needs a `default`.
public struct ArchiveError: Error, Sendable, CustomStringConvertible, LocalizedError, Equatable {
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
        case .unreadable: .unreadable
        case .badManifest: .badManifest
        case .refusedEntry: .refusedEntry
        case .overLimit: .overLimit
        case .unwritable: .unwritable
        case .writeFailed: .writeFailed
        }
    }

    /// A message that says what failed and what to do about it.
    public var message: String {
        switch reason {
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

    /// Same as ``message``.
    public var description: String { message }

    /// Same as ``message``, for `localizedDescription`.
    public var errorDescription: String? { message }
}
