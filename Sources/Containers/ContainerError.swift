public import Foundation

/// What went wrong in an ``AppContainer`` operation. Each message names the container, file or value
/// involved and says what to do about it.
///
/// Tell failures apart by their ``code``, compared with the static members of
/// ``Code`` (`error.code == .notFound`); a release may add codes, so a `switch` over them needs
/// a `default`. ``path``, ``containerName`` and ``underlyingError`` give the details a code has.
public struct ContainerError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The failure with its details. `package`: the engines and front-ends of this package match on it; an
    /// app uses ``code``, ``message`` and the public details.
    package let reason: Reason

    /// The error for `reason`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What kind of failure it is.
    public var code: Code {
        switch reason {
        case .notFound: .notFound
        case .duplicateName: .duplicateName
        case .nameDiffersOnlyByCase: .nameDiffersOnlyByCase
        case .invalidName: .invalidName
        case .invalidUUID: .invalidUUID
        case .cannotDeleteDefault: .cannotDeleteDefault
        case .cannotRenameDefault: .cannotRenameDefault
        case .switchCancelled: .switchCancelled
        case .interrupted: .interrupted
        case .io: .io
        case .corruptMetadata: .corruptMetadata
        case .conflict: .conflict
        case .reentrantOperation: .reentrantOperation
        case .switchWhileAnnouncing: .switchWhileAnnouncing
        case .homeNotFound: .homeNotFound
        case .unsupportedFileName: .unsupportedFileName
        case .unsupportedFileType: .unsupportedFileType
        case .recoveryFailed: .recoveryFailed
        case .unreachableHosts: .unreachableHosts
        case .refusedJournal: .refusedJournal
        case .unsafeFolder: .unsafeFolder
        }
    }

    /// The file or folder the failure is about: the one that could not be used, read or written, the
    /// entry in the way, the home, the folder holding a badly named entry, the journal. Nil for the other
    /// codes.
    public var path: String? {
        switch reason {
        case .io(let path, _), .corruptMetadata(let path, _), .conflict(let path, _), .homeNotFound(let path),
             .unsupportedFileType(let path), .refusedJournal(let path, _), .unsafeFolder(let path, _):
            path
        case .unsupportedFileName(let folder): folder
        case .recoveryFailed(let journal, _): journal
        default: nil
        }
    }

    /// The container name the failure is about: the name (or UUID) not found, the name taken or refused.
    /// Nil for the other codes.
    public var containerName: String? {
        switch reason {
        case .notFound(let name), .duplicateName(let name), .nameDiffersOnlyByCase(let name, _), .invalidName(let name, _):
            name
        default: nil
        }
    }

    /// The error that caused this one: what cancelled a switch, the file system's error, what kept a
    /// journal from being finished or undone. Nil for the other codes.
    public var underlyingError: (any Error)? {
        switch reason {
        case .switchCancelled(let underlying), .io(_, let underlying), .recoveryFailed(_, let underlying): underlying
        default: nil
        }
    }

    /// A message that says what failed and what to do about it.
    public var message: String {
        switch reason {
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

    /// Same as ``message``.
    public var description: String { message }

    /// Same as ``message``, for `localizedDescription`.
    public var errorDescription: String? { message }
}
