import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves the entries a journal recorded, by identity, and sets aside whatever is in their way.
///
/// An entry at a move's destination that is not the recorded one is a newcomer (an application made it
/// while the change was under way, or after a crash): it is moved into the conflicts folder of the
/// container active when the change began (see ``KeptNewcomer``), and the move is made. Nothing is ever
/// replaced: the rename itself refuses to overwrite, so a newcomer made at the last moment is kept too.
struct RecordedEntryMover {
    let layout: HomeLayout
    /// The container whose conflicts folder receives the newcomers.
    let container: UUID
    let report: (SwitchStep) -> Void
    /// The device number of the home's file system as mounted now: an object on another one is never
    /// a recorded entry (see ``EntryIdentity``). That of the folder the home's entries are in: when the
    /// home is a symbolic link, the link's target, not the link (which may be on another file system).
    let device: UInt64
    /// The newcomers kept so far, in order.
    private(set) var kept: [KeptNewcomer] = []
    /// The folder (relative to the home) newcomers of this pass go to, once one was found.
    private var folder: String?

    init(layout: HomeLayout, container: UUID, report: @escaping (SwitchStep) -> Void) throws {
        self.layout = layout
        self.container = container
        self.report = report
        guard let home = try FileSystem.statusFollowingLink(at: layout.home) else {
            throw ContainerError.homeNotFound(path: layout.home)
        }
        device = UInt64(home.st_dev)
    }

    /// Makes sure the entry `entry` is at `destination` if it is at `source` (paths relative to the
    /// home). Done when the destination holds it already; nothing to do when neither place does (someone
    /// else removed it) — unless `mustBeThere`.
    ///
    /// - Parameter mustBeThere: the move is part of a change's first forward pass, made right after its
    ///   journal recorded the entry at `source`: finding it in neither place then means the journal does
    ///   not see the home as it is (or the entry was removed or replaced meanwhile), and going on could
    ///   commit a switch that moved nothing; so it throws instead, and the change is undone.
    mutating func move(_ entry: EntryIdentity, from source: String, to destination: String, mustBeThere: Bool = false) throws {
        let from = layout.absolute(source)
        let to = layout.absolute(destination)
        if try EntryIdentity.of(to, onDevice: device) == entry { return }
        if mustBeThere, try EntryIdentity.of(from, onDevice: device) != entry {
            throw ContainerError.io(path: from, underlying: MissingRecordedEntry(destination: to))
        }
        var setAside = 0
        while try EntryIdentity.of(from, onDevice: device) == entry {
            if try FileSystem.renameWithoutReplacing(from, to: to) { return }
            // Something keeps appearing in the way: give up rather than fill the conflicts folder.
            guard setAside < 8 else {
                throw ContainerError.io(path: to, underlying: SystemCallError("rename from '\(from)'", code: EEXIST))
            }
            setAside += 1
            try keepNewcomer(at: destination)
        }
    }

    /// Moves the entry at `relative` into this pass's conflicts folder, makes that durable and reports it.
    private mutating func keepNewcomer(at relative: String) throws {
        let newcomer = layout.absolute(relative)
        var keptRelative = try keptPath(for: relative, freshFolder: false)
        if try FileSystem.exists(layout.absolute(keptRelative)) {
            keptRelative = try keptPath(for: relative, freshFolder: true)
        }
        var touched = [(newcomer as NSString).deletingLastPathComponent]
        var parent = folder!
        touched.append(layout.absolute(parent))
        for component in PathComponents.of(relative, omittingEmpty: true).dropLast() {
            parent = joinPath(parent, component)
            try FileSystem.makeDirectory(layout.absolute(parent))
            touched.append(layout.absolute(parent))
        }
        do {
            guard try FileSystem.renameWithoutReplacing(newcomer, to: layout.absolute(keptRelative)) else {
                throw ContainerError.io(path: layout.absolute(keptRelative), underlying: SystemCallError("rename from '\(newcomer)'", code: EEXIST))
            }
        } catch let error as ContainerError where error.code == .io && (error.underlyingError as? SystemCallError)?.code == ENOENT {
            return // the newcomer went away by itself
        }
        // Durable before the move it makes way for, so that no crash finds both names gone or both taken.
        for path in touched { try FileSystem.syncDirectory(path) }
        let record = KeptNewcomer(
            path: relative, keptAt: URL(fileURLWithPath: layout.absolute(keptRelative)), container: container)
        kept.append(record)
        report(.keptNewcomer(record))
    }

    /// Where the newcomer at `relative` goes, in this pass's folder, which is made (with the conflicts
    /// folder) on first use; with `freshFolder`, in a new folder.
    private mutating func keptPath(for relative: String, freshFolder: Bool) throws -> String {
        if folder == nil || freshFolder {
            let conflicts = HomeLayout.containerFolder(container) + "/conflicts"
            try FileSystem.makeDirectory(layout.absolute(conflicts))
            let stamp = Self.timestamp(Date())
            var candidate = conflicts + "/" + stamp
            var counter = 1
            while try FileSystem.exists(layout.absolute(candidate)) {
                counter += 1
                candidate = conflicts + "/" + stamp + "-\(counter)"
            }
            try FileSystem.makeDirectory(layout.absolute(candidate))
            try FileSystem.syncDirectory(layout.absolute(conflicts))
            try FileSystem.syncDirectory(layout.containerFolder(container))
            folder = candidate
        }
        return folder! + "/" + relative
    }

    /// `2025-01-31T09-30-00.123Z`: sorts by time, and has no colon, which some tools take for a host.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date).replacingOccurrences(of: ":", with: "-")
    }
}

/// Why a change's first forward pass stopped: the entry its journal recorded at a path is no longer
/// there, nor at the move's destination.
struct MissingRecordedEntry: Error, CustomStringConvertible {
    /// Where the entry was to go.
    let destination: String

    var description: String {
        "the entry recorded there when the change began is neither there nor at '\(destination)' (it was removed or replaced meanwhile, or is not on the home's file system)"
    }
}
