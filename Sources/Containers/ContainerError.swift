import Foundation

/// What went wrong in an ``AppContainer`` operation. Each message names the container, file or value
/// involved and says what to do about it.
public enum ContainerError: Error, Sendable, CustomStringConvertible, LocalizedError {
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

    /// A message that says what failed and what to do about it.
    public var description: String {
        switch self {
        case .notFound(let key):
            return "no container is named '\(key)' or has that UUID; list the containers to see what exists"
        case .duplicateName(let name):
            return "a container named '\(name)' already exists in this home; choose another name"
        case .nameDiffersOnlyByCase(let name, let existing):
            return "the name '\(name)' differs only by case from the container '\(existing)' of this home, and names must differ by more than case; choose another name"
        case .invalidName(let name, let reason):
            return "invalid container name '\(name.debugDescription.dropFirst().dropLast())': \(reason)"
        case .invalidUUID(let text):
            return "'\(text)' is not a UUID; expected 32 hexadecimal digits like 00000000-0000-0000-0000-000000000000"
        case .cannotDeleteDefault:
            return "the DEFAULT container holds the original data and cannot be deleted; use clean to empty it or reset to remove all other containers"
        case .cannotRenameDefault:
            return "the DEFAULT container's name cannot be changed; you may change its description"
        case .switchCancelled(let underlying):
            return "the container switch was cancelled, nothing on disk changed: \(underlying)"
        case .interrupted(let operation):
            return "the \(operation) was interrupted before it was made and undone: nothing on disk changed"
        case .io(let path, let underlying):
            return "file operation on '\(path)' failed: \(underlying); check that the path exists, is writable and has free space"
        case .corruptMetadata(let path, let reason):
            return "container bookkeeping file '\(path)' is unusable: \(reason); restore it from a backup or fix it by hand"
        case .conflict(let path, let reason):
            return "cannot switch: '\(path)' \(reason); nothing was changed — move or remove that entry, then retry"
        case .reentrantOperation(let operation):
            return "cannot \(operation) while a switch of the same home is under way (from a will-change delegate, hook, notification observer or participant, or a did-change hook run for another process's switch); do it after the switch, for example from a did-change hook of this process's own switch"
        case .switchWhileAnnouncing(let target, let announced):
            return "cannot switch to '\(target)' from inside a did-change hook, delegate or notification observer: the switch to '\(announced)' is still being announced, and a hook that switches would chain switches without end; the home stays on '\(announced)'. Switch from the code that asked for the first switch, or decide the target in an on_will_change hook (which may cancel a switch)"
        case .homeNotFound(let path):
            return "the home folder '\(path)' does not exist or is not a folder; create it first"
        case .unsupportedFileName(let folder):
            return "folder '\(folder)' holds an entry whose name is not valid UTF-8; rename it"
        case .unsupportedFileType(let path):
            return "'\(path)' is a socket, FIFO or device and cannot be copied; remove it and retry"
        case .unreachableHosts(let pids):
            let list = pids.map { "pid \($0)" }.joined(separator: ", ")
            return "running hosts are attached to this home (\(list)) and could not take their part in the change; make it through EnvScript (an EnvScriptHost, or the envscript command), which reaches them, or stop them first"
        case .recoveryFailed(let journal, let underlying):
            return "an interrupted container switch recorded in '\(journal)' could be neither finished nor undone: \(underlying); fix the cause, then open the home again"
        case .unsafeFolder(let path, let reason):
            return "refusing to use the folder '\(path)' for control sockets: \(reason); another user could replace a socket there and refuse or watch every switch. Remove it (its owner or root can: rm -r '\(path)') or set TMPDIR to a folder of your own, then start again"
        case .refusedJournal(let path, let reason):
            return "refusing to replay the journal '\(path)': \(reason); nothing was changed — run 'envscript container doctor' to see what it recorded and 'envscript container doctor --repair' to put every recorded entry back where the home's state says it belongs (the journal is then kept in quarantine)"
        }
    }

    /// Same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
