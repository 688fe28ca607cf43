extension ContainerError {
    /// The failure with its details, one case per `Code`. `package`: the engines and front-ends of this
    /// package match on it; an app uses `code`, `message` and the public details.
    package enum Reason: Sendable {
        /// No container has this name or UUID.
        case notFound(String)
        /// Another container of this home already has this name.
        case duplicateName(String)
        /// The name differs only by case from the name of another container of this home (`existing`), so
        /// that "activate debug" could mean either; names are unique regardless of case.
        case nameDiffersOnlyByCase(String, existing: String)
        /// The name cannot be used; `reason` says why.
        case invalidName(String, reason: String)
        /// The text is not a UUID.
        case invalidUUID(String)
        /// The DEFAULT container holds the original data and cannot be deleted.
        case cannotDeleteDefault
        /// The DEFAULT container's name is fixed.
        case cannotRenameDefault
        /// A will-change delegate, hook or a participant's flush threw: the switch did not happen and nothing
        /// on disk changed.
        case switchCancelled(underlying: any Error)
        /// The change described as `operation` was asked to stop (Ctrl-C) before it was made: it was undone
        /// and nothing on disk changed.
        case interrupted(operation: String)
        /// A file operation failed.
        case io(path: String, underlying: any Error)
        /// A bookkeeping file exists but cannot be used.
        case corruptMetadata(path: String, reason: String)
        /// A switch would have to put an entry where one already is; nothing was changed.
        case conflict(path: String, reason: String)
        /// A will-change delegate, hook, notification observer or participant tried to change containers
        /// while a change of the same home was under way on its thread, or a did-change hook run for
        /// another process's switch (which holds the home's lock meanwhile) tried to.
        case reentrantOperation(String)
        /// A switch was started from a did-change delegate, hook or notification observer (on the thread
        /// announcing the switch to `announced`); it would chain switches, so it is refused.
        case switchWhileAnnouncing(to: String, announced: String)
        /// The home folder does not exist or is not a folder.
        case homeNotFound(path: String)
        /// A folder holds an entry whose name is not valid UTF-8.
        case unsupportedFileName(folder: String)
        /// An entry is neither a file, a folder nor a symbolic link (a socket, FIFO or device), so it cannot
        /// be copied.
        case unsupportedFileType(path: String)
        /// A crash left a journal that could be neither finished nor undone.
        case recoveryFailed(journal: String, underlying: any Error)
        /// Running hosts are attached to the home, and this instance has no way to let them take part.
        case unreachableHosts(pids: [Int32])
        /// The journal at `path` cannot be replayed safely, so it was not replayed and nothing changed:
        /// it does not match the home's recorded state (it is left over from an earlier change, was put
        /// back by hand, or the home was copied while a change was under way), names a container that no
        /// longer exists, or is not a journal this version reads. `reason` says which.
        case refusedJournal(path: String, reason: String)
        /// A folder that must be this user's alone (the per-user folder of control sockets, the folder of a
        /// running host's socket) is not: `reason` says how (another owner, a link, access for others).
        case unsafeFolder(path: String, reason: String)
    }

    // The errors by the names of their reasons, so that `throw ContainerError.notFound(name)` reads as
    // the reason it throws.

    package static func notFound(_ key: String) -> Self { Self(.notFound(key)) }
    package static func duplicateName(_ name: String) -> Self { Self(.duplicateName(name)) }
    package static func nameDiffersOnlyByCase(_ name: String, existing: String) -> Self {
        Self(.nameDiffersOnlyByCase(name, existing: existing))
    }
    package static func invalidName(_ name: String, reason: String) -> Self { Self(.invalidName(name, reason: reason)) }
    package static func invalidUUID(_ text: String) -> Self { Self(.invalidUUID(text)) }
    package static var cannotDeleteDefault: Self { Self(.cannotDeleteDefault) }
    package static var cannotRenameDefault: Self { Self(.cannotRenameDefault) }
    package static func switchCancelled(underlying: any Error) -> Self { Self(.switchCancelled(underlying: underlying)) }
    package static func interrupted(operation: String) -> Self { Self(.interrupted(operation: operation)) }
    package static func io(path: String, underlying: any Error) -> Self { Self(.io(path: path, underlying: underlying)) }
    package static func corruptMetadata(path: String, reason: String) -> Self { Self(.corruptMetadata(path: path, reason: reason)) }
    package static func conflict(path: String, reason: String) -> Self { Self(.conflict(path: path, reason: reason)) }
    package static func reentrantOperation(_ operation: String) -> Self { Self(.reentrantOperation(operation)) }
    package static func switchWhileAnnouncing(to target: String, announced: String) -> Self {
        Self(.switchWhileAnnouncing(to: target, announced: announced))
    }
    package static func homeNotFound(path: String) -> Self { Self(.homeNotFound(path: path)) }
    package static func unsupportedFileName(folder: String) -> Self { Self(.unsupportedFileName(folder: folder)) }
    package static func unsupportedFileType(path: String) -> Self { Self(.unsupportedFileType(path: path)) }
    package static func recoveryFailed(journal: String, underlying: any Error) -> Self {
        Self(.recoveryFailed(journal: journal, underlying: underlying))
    }
    package static func unreachableHosts(pids: [Int32]) -> Self { Self(.unreachableHosts(pids: pids)) }
    package static func refusedJournal(path: String, reason: String) -> Self { Self(.refusedJournal(path: path, reason: reason)) }
    package static func unsafeFolder(path: String, reason: String) -> Self { Self(.unsafeFolder(path: path, reason: reason)) }
}
