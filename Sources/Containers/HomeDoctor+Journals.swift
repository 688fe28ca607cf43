import Foundation

extension HomeDoctor {
    /// A journal found in the bookkeeping: `journal.json`, or one moved away beside it.
    struct FoundJournal {
        let path: String
        let journal: Journal
    }

    /// Checks `journal.json` and the journals moved away beside it (`journal.json.<anything>`, as the
    /// refusal of a journal suggests).
    func journalProblems(active: UUID?) throws -> [HomeInconsistency] {
        var found: [HomeInconsistency] = []
        if try FileSystem.exists(layout.journal) {
            found.append(leftoverJournalProblem(active: active))
        }
        for path in try movedAwayJournalPaths() {
            found.append(movedAwayJournalProblem(at: path, active: active))
        }
        return found
    }

    /// The files beside `journal.json` named `journal.json.<anything>`.
    func movedAwayJournalPaths() throws -> [String] {
        let prefix = (layout.journal as NSString).lastPathComponent + "."
        return try FileSystem.list(layout.bookkeeping)
            .filter { $0.kind == .regularFile && $0.name.hasPrefix(prefix) }
            .map { layout.bookkeeping + "/" + $0.name }
            .sorted()
    }

    private func leftoverJournalProblem(active: UUID?) -> HomeInconsistency {
        let runner = JournalRunner(layout: layout, report: { _ in })
        let journal: Journal
        do {
            guard let pending = try runner.pending() else {
                return HomeInconsistency(.damagedJournal, layout.journal, problem: "it vanished while being read", repair: "nothing; run doctor again", isRepairable: false)
            }
            journal = pending
        } catch {
            return HomeInconsistency(
                .damagedJournal, layout.journal, problem: "\(error)",
                repair: "move it into the quarantine folder, leaving every entry where it is; the next run of doctor reports entries out of place")
        }
        do {
            _ = try runner.standing(of: journal)
            return HomeInconsistency(
                .leftoverJournal, layout.journal,
                problem: "\(journal.operation) was interrupted and left its journal; the next change of the home finishes it",
                repair: "finish the change from its journal now, as the next change would")
        } catch {
            return HomeInconsistency(
                .refusedJournal, layout.journal,
                problem: "\(error)",
                repair: placementRepair(of: journal, active: active))
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
        let misplaced = (try? misplacedMoves(of: journal, active: active)) ?? 0
        guard misplaced > 0 else {
            return HomeInconsistency(
                .movedAwayJournal, path,
                problem: "a journal of \(journal.operation) was moved away from '\(layout.journal)'; none of its entries is out of place",
                repair: "move it into the quarantine folder")
        }
        return HomeInconsistency(
            .halfSwitchedHome, path,
            problem: "the home is half switched: \(journal.operation) stopped after some of its moves and its journal was moved away to this file, so \(misplaced) of its \(journal.moveCount) \(journal.moveCount == 1 ? "entry is" : "entries are") not where '\(layout.state)' says they belong",
            repair: placementRepair(of: journal, active: active))
    }

    /// What ``placeEntries(of:active:)`` does for `journal`.
    private func placementRepair(of journal: Journal, active: UUID?) -> String {
        switch direction(of: journal, active: active) {
        case .forward?:
            return "finish the change it records (the state record names its new container): every entry it recorded goes where the change takes it, recognised by its identity; then move the journal into the quarantine folder"
        case .back?:
            return "undo the change it records (the state record still names the container it started from): every entry it recorded goes back where it came from, recognised by its identity; then move the journal into the quarantine folder"
        case nil:
            return "move the journal into the quarantine folder, leaving every entry where it is: the state record names neither container of the change, so nobody can tell where its entries belong"
        }
    }

    enum Direction { case forward, back }

    /// Which way entries of `journal` belong: forward when the state record names the container the
    /// change makes active, back when it still names the one it started from.
    func direction(of journal: Journal, active: UUID?) -> Direction? {
        guard let active else { return nil }
        if let after = journal.activeAfter, after != journal.activeBefore, after == active { return .forward }
        if journal.activeBefore == active { return .back }
        return nil
    }

    /// How many entries the journal recorded are where its change would not leave them, judging by the
    /// active container: at their source when it was finished, at their destination when it was undone.
    func misplacedMoves(of journal: Journal, active: UUID?) throws -> Int {
        guard let direction = direction(of: journal, active: active) else { return 0 }
        var count = 0
        for case .move(let from, let to, let entry?) in journal.steps {
            let wrongPlace = direction == .forward ? from : to
            if try EntryIdentity.of(layout.absolute(wrongPlace)) == entry { count += 1 }
        }
        return count
    }

    /// Puts every entry `journal` recorded where the active container says it belongs, with the journal's
    /// own replay (a newcomer in the way is kept in a conflicts folder, never overwritten), then writes
    /// the records of that side. Returns what it did.
    func placeEntries(of journal: Journal, active: UUID?) throws -> String {
        let runner = JournalRunner(layout: layout, report: { _ in })
        switch direction(of: journal, active: active) {
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
