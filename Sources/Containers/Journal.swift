import Foundation

/// The record, written and made durable before anything moves, of one change to a home's entries.
///
/// Each step is idempotent and its progress can be read back from the disk, so after a crash the change
/// can be finished (or undone) by replaying the steps in order:
/// - a ``Step/move(from:to:)`` is done when its source is gone or its destination exists. The planner
///   guarantees that every path is the destination of at most one step and the source of at most one,
///   and that a path is vacated (as a source) before it is filled (as a destination); so once done, a
///   move's destination stays occupied until the journal is finished.
/// - a ``Step/makeDirectory(path:mode:)`` is done when the folder exists;
/// - a ``Step/removeDirectoryIfEmpty(path:mode:)`` only ever removes a folder the journal emptied.
///
/// After the steps, `metadataAfter` is written, then `activeAfter` recorded in `state.json` (the commit
/// point of a switch); then the journal is removed and `removeAfter` (trash) deleted.
struct Journal: Codable, Sendable, Equatable {
    /// One idempotent change; paths are relative to the home.
    enum Step: Codable, Sendable, Equatable {
        case move(from: String, to: String)
        case makeDirectory(path: String, mode: UInt32)
        case removeDirectoryIfEmpty(path: String, mode: UInt32)
    }

    static let currentVersion = 1

    var version = Journal.currentVersion
    /// What the change is, for people reading a left-over journal ("switch A -> B").
    var operation: String
    var steps: [Step]
    /// The container to record as active once the steps are done; nil when the active one stays.
    var activeAfter: UUID?
    /// Metadata files to write once the steps are done.
    var metadataAfter: [Container]
    /// Paths (relative to the home) to delete once the change is complete.
    var removeAfter: [String]

    /// The number of moves, as counted by ``SwitchStep/moved(_:of:)``.
    var moveCount: Int {
        steps.reduce(0) { count, step in
            if case .move = step { return count + 1 }
            return count
        }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    static func decode(_ data: Data, path: String) throws -> Journal {
        let journal: Journal
        do {
            journal = try JSONDecoder().decode(Journal.self, from: data)
        } catch {
            throw ContainerError.corruptMetadata(path: path, reason: "not a journal: \(error)")
        }
        guard journal.version == currentVersion else {
            throw ContainerError.corruptMetadata(
                path: path, reason: "journal version \(journal.version) is not supported (expected \(currentVersion))")
        }
        return journal
    }
}
