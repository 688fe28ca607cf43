import Foundation

extension HomeDoctor {
    /// Checks the journal left in the home — `journal.json`, or `journal.undo.json` while a change that
    /// failed or was interrupted is being undone (``HomeLayout/journals``) — and the journals moved away
    /// beside them (`journal.json.<anything>`, `journal.undo.json.<anything>`, as the refusal of a
    /// journal suggests).
    func journalProblems(active: UUID?) throws -> [HomeInconsistency] {
        var found: [HomeInconsistency] = []
        let left = try layout.journals.filter { try FileSystem.exists($0) }
        if left.count > 1 {
            // A change never leaves both: undoing renames the one into the other. Replaying would read
            // the undo journal and remove both, so neither is touched.
            for path in left {
                found.append(HomeInconsistency(
                    .refusedJournal, path,
                    problem: "both '\(layout.journal)' and '\(layout.undoJournal)' are there, which no change of the home leaves (undoing a change renames its journal), so one of them was put back by hand or copied in",
                    repair: "nothing: move the one that does not belong to this home away (beside it, as \((path as NSString).lastPathComponent).<anything>) and run doctor again",
                    isRepairable: false))
            }
        } else if let path = left.first {
            found.append(leftoverJournalProblem(at: path, active: active))
        }
        for path in try movedAwayJournalPaths() {
            found.append(movedAwayJournalProblem(at: path, active: active))
        }
        return found
    }

    /// Whether any journal — left in the home, or moved away beside it — is in the bookkeeping.
    func anyJournalIsThere() throws -> Bool {
        try layout.journals.contains { try FileSystem.exists($0) } || !movedAwayJournalPaths().isEmpty
    }

    /// Whether the journal at `path` is (or was moved away from) the undo journal: that of a change that
    /// failed or was interrupted and was reported as not made, which may only ever be undone.
    func isUndoJournal(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        let undo = (layout.undoJournal as NSString).lastPathComponent
        return name == undo || name.hasPrefix(undo + ".")
    }

    /// The files beside the journals named `journal.json.<anything>` or `journal.undo.json.<anything>`.
    func movedAwayJournalPaths() throws -> [String] {
        let prefixes = layout.journals.map { ($0 as NSString).lastPathComponent + "." }
        return try FileSystem.list(layout.bookkeeping)
            .filter { entry in entry.kind == .regularFile && prefixes.contains { entry.name.hasPrefix($0) } }
            .map { layout.bookkeeping + "/" + $0.name }
            .sorted()
    }

    /// The staged records (``Journal/staged``, their temporary names relative to the home) that the
    /// journals in the bookkeeping name — what a pending journal's commit renames into place; nil when
    /// a journal left in the home cannot be read, so that which temporary files it needs is unknown.
    func stagedFilesOfJournals() throws -> Set<String>? {
        var staged: Set<String> = []
        for path in try layout.journals + movedAwayJournalPaths() {
            let journal: Journal
            do {
                guard let data = try FileSystem.read(path) else { continue }
                journal = try Journal.decode(data, path: path)
            } catch {
                if layout.journals.contains(path) { return nil }
                continue
            }
            for file in journal.staged ?? [] { staged.insert(layout.absolute(file.stagedAt)) }
        }
        return staged
    }

    private func leftoverJournalProblem(at path: String, active: UUID?) -> HomeInconsistency {
        let runner = JournalRunner(layout: layout, report: { _ in })
        let undoing = isUndoJournal(path)
        let journal: Journal
        do {
            guard let pending = try runner.pending() else {
                return HomeInconsistency(.damagedJournal, path, problem: "it vanished while being read", repair: "nothing; run doctor again", isRepairable: false)
            }
            journal = pending
        } catch {
            return HomeInconsistency(
                .damagedJournal, path, problem: "\(error)",
                repair: "move it into the quarantine folder, leaving every entry where it is; the next run of doctor reports entries out of place")
        }
        do {
            let standing = try runner.standing(of: journal)
            if undoing, standing == .uncommitted {
                return HomeInconsistency(
                    .leftoverJournal, path,
                    problem: "\(journal.operation) failed or was interrupted and was being undone when undoing was cut short; some of its entries may still be where the change took them (in the trash or another container's folder), and the next opening of the home goes on undoing it",
                    repair: "undo the rest of the change from its journal now, as the next opening of the home would: every entry it recorded goes back where it came from")
            }
            return HomeInconsistency(
                .leftoverJournal, path,
                problem: "\(journal.operation) was interrupted and left its journal; the next change of the home finishes it",
                repair: "finish the change from its journal now, as the next change would")
        } catch {
            return HomeInconsistency(
                .refusedJournal, path,
                problem: "\(error)",
                repair: placementRepair(of: journal, at: path, active: active))
        }
    }

    private func movedAwayJournalProblem(at path: String, active: UUID?) -> HomeInconsistency {
        let journal: Journal
        do {
            guard let data = try FileSystem.read(path) else {
                return HomeInconsistency(.movedAwayJournal, path, problem: "it vanished while being read", repair: "nothing; run doctor again", isRepairable: false)
            }
            journal = try Journal.decode(data, path: path)
        } catch {
            return HomeInconsistency(
                .movedAwayJournal, path, problem: "it is named like a journal moved away, but: \(error)",
                repair: "move it into the quarantine folder")
        }
        let misplaced = (try? misplacedMoves(of: journal, at: path, active: active)) ?? 0
        guard misplaced > 0 else {
            return HomeInconsistency(
                .movedAwayJournal, path,
                problem: "a journal of \(journal.operation) was moved away from '\(isUndoJournal(path) ? layout.undoJournal : layout.journal)'; none of its entries is out of place",
                repair: "move it into the quarantine folder")
        }
        return HomeInconsistency(
            .halfSwitchedHome, path,
            problem: "the home is half switched: \(journal.operation) stopped after some of its moves\(isUndoJournal(path) ? " (it failed or was interrupted, and was being undone)" : "") and its journal was moved away to this file, so \(misplaced) of its \(journal.moveCount) \(journal.moveCount == 1 ? "entry is" : "entries are") not where '\(layout.state)' says they belong",
            repair: placementRepair(of: journal, at: path, active: active))
    }

    /// What ``placeEntries(of:at:active:)`` does for the journal read from `path`.
    private func placementRepair(of journal: Journal, at path: String, active: UUID?) -> String {
        switch direction(of: journal, at: path, active: active) {
        case .forward?:
            return "finish the change it records (the state record names its new container): every entry it recorded goes where the change takes it, recognised by its identity; then move the journal into the quarantine folder"
        case .back?:
            return "undo the change it records (the state record still names the container it started from): every entry it recorded goes back where it came from, recognised by its identity; then move the journal into the quarantine folder"
        case nil where isUndoJournal(path):
            return "move the journal into the quarantine folder, leaving every entry where it is: it records a change that failed or was interrupted, which may only be undone, but the state record no longer names the container it started from, so nobody can tell where its entries belong"
        case nil:
            return "move the journal into the quarantine folder, leaving every entry where it is: the state record names neither container of the change, so nobody can tell where its entries belong"
        }
    }

    enum Direction { case forward, back }

    /// Which way entries of `journal`, read from `path`, belong: forward when the state record names the
    /// container the change makes active, back when it still names the one it started from. An undo
    /// journal's change failed or was interrupted and was reported as not made: it only ever goes back.
    func direction(of journal: Journal, at path: String, active: UUID?) -> Direction? {
        guard let active else { return nil }
        if isUndoJournal(path) { return journal.activeBefore == active ? .back : nil }
        if let after = journal.activeAfter, after != journal.activeBefore, after == active { return .forward }
        if journal.activeBefore == active { return .back }
        return nil
    }

    /// How many entries the journal recorded are where its change would not leave them, judging by the
    /// active container: at their source when it was finished, at their destination when it was undone.
    func misplacedMoves(of journal: Journal, at path: String, active: UUID?) throws -> Int {
        guard let direction = direction(of: journal, at: path, active: active) else { return 0 }
        var count = 0
        for case .move(let from, let to, let entry?) in journal.steps {
            let wrongPlace = direction == .forward ? from : to
            if try EntryIdentity.of(layout.absolute(wrongPlace)) == entry { count += 1 }
        }
        return count
    }

    /// Puts every entry `journal` (read from `path`) recorded where the active container says it
    /// belongs, with the journal's own replay (a newcomer in the way is kept in a conflicts folder, never
    /// overwritten), then writes the records of that side. Returns what it did.
    func placeEntries(of journal: Journal, at path: String, active: UUID?) throws -> String {
        let runner = JournalRunner(layout: layout, report: { _ in })
        switch direction(of: journal, at: path, active: active) {
        case .forward?:
            let kept = try HomeLock.holdingStores(layout) { try runner.rollForward(journal) }
            for container in journal.metadataAfter where try FileSystem.kind(at: layout.containerFolder(container.uuid)) == .directory {
                try store.write(container)
            }
            return "finished \(journal.operation)" + Self.keptNote(kept)
        case .back?:
            let kept = try HomeLock.holdingStores(layout) { try runner.rollBack(journal) }
            return "undid \(journal.operation)" + Self.keptNote(kept)
        case nil:
            return "left every entry where it is"
        }
    }

    private static func keptNote(_ kept: [KeptNewcomer]) -> String {
        kept.isEmpty ? "" : " (\(kept.count) \(kept.count == 1 ? "entry was" : "entries were") in the way and \(kept.count == 1 ? "is" : "are") kept in a conflicts folder)"
    }
}
