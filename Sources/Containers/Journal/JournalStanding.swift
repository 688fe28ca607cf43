import Foundation

extension JournalRunner {
    /// Where a journal found in the home stands.
    enum Standing: Equatable {
        /// `state.json` is still the record the journal was written against: finish the change.
        case uncommitted
        /// `state.json` names the container the journal makes active: only the removals remain.
        case committed
    }

    /// Decides whether a journal left in the home belongs to its current state, before anything is
    /// replayed.
    ///
    /// A journal is replayed only while `state.json` is exactly the record it was written against (its
    /// stamp: same file, same modification time), which no other change can leave in place; and it is
    /// taken as committed only when `state.json` names the container it makes active, since its steps
    /// were all done before that was written. Anything else — a journal put back by hand after later
    /// switches, one whose home was copied while it was under way, one naming a container since
    /// deleted — would move entries on stale facts, so it is refused and nothing changes.
    ///
    /// (A journal put back right after the very switch it records, with no switch since, cannot be told
    /// from a crash just before its removal; it is taken as committed, and removing it changes nothing.)
    ///
    /// - Throws: ``ContainerError/Code/refusedJournal``.
    func standing(of journal: Journal) throws -> Standing {
        // The refusals name the file the journal was read from: the undo journal when there is one.
        let path = journalOnDisk()
        for uuid in journal.namedContainers.sorted(by: { $0.uuidString < $1.uuidString }) {
            let folder = layout.containerFolder(uuid)
            if try FileSystem.kind(at: folder) != .directory {
                throw ContainerError.refusedJournal(
                    path: path,
                    reason: "it records \(journal.operation), and names container \(uuid.uuidString), which no longer exists (there is no folder '\(folder)')")
            }
        }
        guard let before = journal.activeBefore else {
            throw ContainerError.refusedJournal(
                path: path, reason: "it does not record which container was active when it was written")
        }
        let active = try metadata.activeUUID()
        if active == before, try FileStamp.of(layout.state) == journal.stateBefore {
            return .uncommitted
        }
        if let after = journal.activeAfter, after != before, active == after {
            return .committed
        }
        let reason: String
        if active == before {
            reason = "it records \(journal.operation), but '\(layout.state)' was rewritten after the journal was written, by later changes or by a copy of the home, so the journal is left over from an earlier change, was put back by hand, or comes from a copy made while the change was under way"
        } else {
            let target = journal.activeAfter.map { " nor \($0.uuidString), which it makes active" } ?? ""
            reason = "it records \(journal.operation), but '\(layout.state)' names container \(active.uuidString) as active, neither \(before.uuidString), which was active when the journal was written,\(target); the journal is left over from an earlier change or was put back by hand"
        }
        throw ContainerError.refusedJournal(path: path, reason: reason)
    }
}
