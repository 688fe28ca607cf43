import Foundation

/// The record, written and made durable before anything moves, of one change to a home's entries.
///
/// Each step is idempotent and its progress can be read back from the disk, so after a crash the change
/// can be finished (or undone) by replaying the steps in order:
/// - a ``Step/move(from:to:entry:)`` moves one entry, recognised by its identity (its inode number,
///   which `rename(2)` keeps and a remount too; see ``EntryIdentity``). It is done when the destination holds that entry, and to do while the
///   source holds it; when neither does, the entry was removed by someone else and there is nothing to
///   move. The destination is never taken for done just because something is there: an entry in the
///   way is a newcomer, which is kept in a conflicts folder (see ``KeptNewcomer``), never overwritten
///   or hidden. Undoing works the same way backwards.
/// - a ``Step/makeDirectory(path:mode:)`` is done when the folder exists;
/// - a ``Step/removeDirectoryIfEmpty(path:mode:)`` only ever removes a folder the journal emptied.
///
/// The planner guarantees that every path is the destination of at most one step and the source of at
/// most one, and that a path is vacated (as a source) before it is filled (as a destination).
///
/// A journal also records the home it applies to: the container active when it was written and the
/// stamp of `state.json` then. Every record the change writes — the new `state.json` naming `activeAfter`,
/// the containers' new `container.json` — is written in full before the journal (``staged``), so that
/// nothing needs free space once entries move. After the steps, the staged `state.json` is renamed into
/// place (the commit point of a switch), then the staged metadata; then the journal is removed and
/// `removeAfter` (trash) deleted. A change that fails or is interrupted before its commit point is undone
/// before the failure is reported: the journal is first renamed to `journal.undo.json`
/// (``HomeLayout/undoJournal``), so that if undoing is cut short, the next opening of the home goes on
/// undoing it rather than finishing a change that was reported as not made. A journal left in the home is replayed only if `state.json` is still the record it was
/// written against (the change was not committed) or names `activeAfter` (it was); any other journal is
/// stale and refused (see ``JournalRunner/standing(of:)``).
struct Journal: Codable, Sendable, Equatable {
    /// One idempotent change; paths are relative to the home.
    enum Step: Codable, Sendable, Equatable {
        /// Moves the entry `entry` from `from` to `to`. `entry` is recorded when the journal is written;
        /// nil there means nothing was at `from`, so there is nothing to move.
        case move(from: String, to: String, entry: EntryIdentity? = nil)
        case makeDirectory(path: String, mode: UInt32)
        case removeDirectoryIfEmpty(path: String, mode: UInt32)
    }

    /// Version 2 added the identities of moved entries, `activeBefore`, `stateBefore` and
    /// `metadataBefore`; version 3 records identities without the device number, and ``staged`` records
    /// instead of `metadataBefore` and `metadataAfter`. Version 2 journals are still replayed (their
    /// device numbers ignored, their metadata written as they say); version 1 journals, which knew only
    /// paths, are refused rather than replayed without the means to tell a newcomer from a moved entry.
    static let currentVersion = 3
    /// The versions this one replays.
    static let readableVersions = 2...currentVersion

    var version = Journal.currentVersion
    /// What the change is, for people reading a left-over journal ("switch from 'A' (…) to 'B' (…)").
    var operation: String
    var steps: [Step]
    /// The container active when the journal was written; recorded by ``JournalRunner/write(_:)``.
    var activeBefore: UUID?
    /// The stamp of `state.json` when the journal was written; recorded by ``JournalRunner/write(_:)``.
    var stateBefore: FileStamp?
    /// The container to record as active once the steps are done; nil when the active one stays.
    var activeAfter: UUID?
    /// Metadata files to write back when the change is undone.
    var metadataBefore: [Container]
    /// Metadata files to write once the steps are done.
    var metadataAfter: [Container]
    /// Paths (relative to the home) to delete once the change is complete.
    var removeAfter: [String]
    /// The records written before the journal, renamed into place in this order when the change commits
    /// (`state.json` first: the commit point); recorded by ``JournalRunner/write(_:)``. Nil in journals
    /// of version 2, which wrote `metadataAfter` at the commit instead.
    var staged: [StagedFile]?

    init(
        operation: String, steps: [Step], activeAfter: UUID?, metadataBefore: [Container] = [],
        metadataAfter: [Container], removeAfter: [String]
    ) {
        self.operation = operation
        self.steps = steps
        self.activeAfter = activeAfter
        self.metadataBefore = metadataBefore
        self.metadataAfter = metadataAfter
        self.removeAfter = removeAfter
    }

    /// The number of moves, as counted by ``SwitchStep/moved(_:of:)``.
    var moveCount: Int {
        steps.reduce(0) { count, step in
            if case .move = step { return count + 1 }
            return count
        }
    }

    /// Every container the journal names: the active ones before and after, those whose metadata it
    /// writes, and those whose folders its steps touch.
    var namedContainers: Set<UUID> {
        var result = Set([activeBefore, activeAfter].compactMap { $0 })
        result.formUnion((metadataBefore + metadataAfter).map(\.uuid))
        let stagedPaths = (staged ?? []).map(\.path)
        let prefix = HomeLayout.bookkeepingName + "/containers/"
        let prefixComponents = PathComponents.of(prefix, omittingEmpty: true)
        for path in stepPaths + stagedPaths {
            let components = PathComponents.of(path)
            guard components.count > prefixComponents.count,
                  Array(components.prefix(prefixComponents.count)) == prefixComponents
            else { continue }
            if let uuid = UUID(uuidString: components[prefixComponents.count]) { result.insert(uuid) }
        }
        return result
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a journal of the current version.
    ///
    /// - Throws: ``ContainerError/Code/refusedJournal`` when `data` is not a journal or one of
    ///   another version.
    static func decode(_ data: Data, path: String) throws -> Journal {
        struct Header: Decodable { var version: Int }
        let version: Int
        do {
            version = try JSONDecoder().decode(Header.self, from: data).version
        } catch {
            throw ContainerError.refusedJournal(path: path, reason: "it is not a journal (\(error))")
        }
        guard readableVersions.contains(version) else {
            throw ContainerError.refusedJournal(
                path: path,
                reason: "it is in journal format \(version), and this version of EnvScript replays only formats \(readableVersions.lowerBound) to \(readableVersions.upperBound); to finish the change it records, open the home with the EnvScript that wrote it")
        }
        let journal: Journal
        do {
            journal = try JSONDecoder().decode(Journal.self, from: data)
        } catch {
            throw ContainerError.refusedJournal(path: path, reason: "it is not a journal of format \(version) (\(error))")
        }
        if let problem = journal.pathProblem {
            throw ContainerError.refusedJournal(path: path, reason: problem)
        }
        return journal
    }

    /// Every path the journal's steps touch, relative to the home.
    var stepPaths: [String] {
        steps.flatMap { step -> [String] in
            switch step {
            case .move(let from, let to, _): [from, to]
            case .makeDirectory(let path, _), .removeDirectoryIfEmpty(let path, _): [path]
            }
        }
    }

    /// Why the journal's paths cannot be replayed, or nil when they can: a replay moves and removes only
    /// inside the home, and removes only from the bookkeeping's trash. A journal is the engine's own
    /// file, so a path that leaves the home means the file was damaged or tampered with.
    var pathProblem: String? {
        for path in stepPaths where !Self.staysInHome(path) {
            return "one of its steps names '\(path)', which is not a path inside the home"
        }
        let trash = HomeLayout.trashFolder("")
        for path in removeAfter where !(Self.staysInHome(path) && path.hasPrefix(trash) && path.count > trash.count) {
            return "it would remove '\(path)', which is not inside the home's trash"
        }
        return (staged ?? []).lazy.compactMap(\.pathProblem).first
    }

    /// Whether a relative path names something inside the home: not absolute, not empty, and with no
    /// empty, `.` or `..` component and no NUL.
    static func staysInHome(_ path: String) -> Bool {
        !path.isEmpty && !path.contains("\0")
            && PathComponents.of(path).allSatisfy { !["", ".", ".."].contains($0) }
    }
}
