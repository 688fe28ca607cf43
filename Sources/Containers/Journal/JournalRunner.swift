import Foundation

/// Carries out a ``Journal``: writes it, replays its steps forward (or backward), commits its outcome
/// and removes it. Every method may be repeated after a crash at any point.
struct JournalRunner {
    let layout: HomeLayout
    let metadata: MetadataStore
    /// Told about each point passed, for tracing and crash tests.
    let report: (SwitchStep) -> Void
    /// Asked before each move and before the commit point: whether whoever started the change asked
    /// for it to stop (Ctrl-C); it is then undone and ``ContainerError/Code/interrupted`` thrown.
    let isInterrupted: () -> Bool

    init(layout: HomeLayout, report: @escaping (SwitchStep) -> Void, isInterrupted: @escaping () -> Bool = { false }) {
        self.layout = layout
        self.metadata = MetadataStore(layout: layout)
        self.report = report
        self.isInterrupted = isInterrupted
    }

    /// Writes `journal`, does its steps and commits it; if a step fails or the change is interrupted
    /// before its commit point, undoes the steps done and rethrows the failure: a change reported as
    /// failed changed nothing, and leaves no journal that would carry it out later.
    ///
    /// A failure after the commit point — putting the other records in place, removing the journal or
    /// the trash — does not undo a change that is made: it is returned, and the journal left (a
    /// committed one) is finished by the next opening of the home.
    func run(_ journal: Journal) throws -> Outcome {
        let recorded = try write(journal)
        let kept: [KeptNewcomer]
        do {
            kept = try rollForward(recorded, firstPass: true)
            try stopIfInterrupted(recorded)
            try passCommitPoint(recorded)
        } catch let failure {
            do {
                try undo(recorded)
            } catch {
                // The journal stays (as the undo journal, unless renaming it failed too): the next opening
                // of the home goes on undoing the change.
                throw ContainerError.recoveryFailed(journal: journalOnDisk(), underlying: failure)
            }
            throw failure
        }
        do {
            try finish(recorded)
        } catch {
            return Outcome(kept: kept, leftToFinish: error)
        }
        return Outcome(kept: kept, leftToFinish: nil)
    }

    /// What ``run(_:)`` did.
    struct Outcome {
        /// The newcomers set aside to make way for the moves.
        let kept: [KeptNewcomer]
        /// Why the tidying after the commit point failed, nil when it did not: the change is made, and
        /// its journal is finished by the next opening of the home.
        let leftToFinish: (any Error)?
    }

    /// Records what the journal needs to recognise its home — the active container, the stamp of
    /// `state.json`, the identity of each entry it moves — writes every record its commit puts in place
    /// (``Journal/staged``), and makes the journal durable at `journal.json`. Nothing has moved yet; if
    /// any of this fails (a full disk), the staged records are removed and nothing changed.
    ///
    /// - Returns: the journal as written.
    @discardableResult
    func write(_ journal: Journal) throws -> Journal {
        var recorded = journal
        recorded.version = Journal.currentVersion
        if recorded.activeBefore == nil { recorded.activeBefore = try metadata.activeUUID() }
        if recorded.stateBefore == nil { recorded.stateBefore = try FileStamp.of(layout.state) }
        recorded.steps = try journal.steps.map { step in
            guard case .move(let from, let to, nil) = step else { return step }
            return .move(from: from, to: to, entry: try EntryIdentity.of(layout.absolute(from)))
        }
        recorded.staged = []
        do {
            try stage(&recorded)
            let data: Data
            do {
                data = try recorded.encoded()
            } catch {
                throw ContainerError.io(path: layout.journal, underlying: error)
            }
            try FileSystem.writeAtomically(data, to: layout.journal) { report(.journalStaged) }
        } catch {
            for file in recorded.staged ?? [] { try? FileSystem.removeFile(layout.absolute(file.stagedAt)) }
            throw error
        }
        report(.journalWritten)
        return recorded
    }

    /// Writes the new `state.json` (when the journal makes another container active) and the
    /// `metadataAfter` records under temporary names, adding each to `journal.staged` as it is written.
    private func stage(_ journal: inout Journal) throws {
        func stage(_ data: Data, at path: String) throws {
            let staged = try FileSystem.writeStaged(data, besides: path)
            journal.staged?.append(StagedFile(path: relative(path), stagedAt: relative(staged)))
        }
        if let active = journal.activeAfter {
            let current = try metadata.activation()
            if current.activeContainer != active {
                try stage(metadata.encode(ActivationState(activeContainer: active, generation: current.generation &+ 1)), at: layout.state)
                report(.stateStaged)
            }
        }
        for container in journal.metadataAfter {
            try stage(metadata.encode(container), at: layout.metadata(container.uuid))
        }
    }

    /// The path of `absolute`, a path inside the home, relative to the home.
    private func relative(_ absolute: String) -> String {
        String(absolute.dropFirst(layout.home.count + 1))
    }

    /// Throws ``ContainerError/Code/interrupted`` if the change was asked to stop.
    private func stopIfInterrupted(_ journal: Journal) throws {
        if isInterrupted() { throw ContainerError.interrupted(operation: journal.operation) }
    }

    /// Undoes a change that failed or was interrupted before its commit point and removes its journal.
    ///
    /// The journal is first renamed to the undo journal — a rename needs no free space — so that if
    /// undoing is cut short (a crash, a second failure), the next opening of the home goes on undoing
    /// the change, never finishes it.
    func undo(_ journal: Journal) throws {
        if try FileSystem.exists(layout.journal) {
            try FileSystem.rename(layout.journal, to: layout.undoJournal)
            try FileSystem.syncDirectory(layout.bookkeeping)
        }
        try rollBack(journal)
        try discard()
    }

    /// The journal left in the home, if any: the one being undone (``HomeLayout/undoJournal``) first.
    ///
    /// - Throws: ``ContainerError/Code/refusedJournal`` when it is not a journal this version reads.
    func pending() throws -> Journal? {
        for path in [layout.undoJournal, layout.journal] {
            if let data = try FileSystem.read(path) { return try Journal.decode(data, path: path) }
        }
        return nil
    }

    /// Where the journal is on disk — the undo journal if there is one, as ``pending()`` reads it — for
    /// messages: `journal.json` when neither is there (or the home cannot be read).
    func journalOnDisk() -> String {
        (try? FileSystem.exists(layout.undoJournal)) == true ? layout.undoJournal : layout.journal
    }

    /// Does every step not yet done, then makes the folders it touched durable.
    ///
    /// - Parameter firstPass: this is the pass made right after the journal was written (not a replay
    ///   after a crash): every entry it recorded must still be where it was, and a move that finds it
    ///   neither there nor at its destination throws (see ``RecordedEntryMover/move(_:from:to:mustBeThere:)``).
    /// - Returns: the newcomers set aside to make way for the moves.
    @discardableResult
    func rollForward(_ journal: Journal, firstPass: Bool = false) throws -> [KeptNewcomer] {
        var mover = try mover(for: journal)
        let total = journal.moveCount
        var moveIndex = 0
        for step in journal.steps {
            switch step {
            case .move(let from, let to, let entry):
                try stopIfInterrupted(journal)
                moveIndex += 1
                if let entry { try mover.move(entry, from: from, to: to, mustBeThere: firstPass) }
                report(.moved(moveIndex, of: total))
            case .makeDirectory(let path, let mode):
                try FileSystem.makeDirectory(layout.absolute(path), mode: mode_t(mode))
            case .removeDirectoryIfEmpty(let path, _):
                try FileSystem.removeDirectoryIfEmpty(layout.absolute(path))
            }
        }
        try syncTouchedFolders(journal)
        report(.movesSynced)
        return mover.kept
    }

    /// Undoes every step that was done, last first, makes the folders it touched durable and removes the
    /// staged records (a journal of version 2 has its `metadataBefore` written back instead). A newcomer in the place an entry returns to is set aside like one in the way of a
    /// move forward: undoing never moves a newcomer into a container's folder.
    ///
    /// - Returns: the newcomers set aside to make way for the entries returning.
    @discardableResult
    func rollBack(_ journal: Journal) throws -> [KeptNewcomer] {
        var mover = try mover(for: journal)
        for step in journal.steps.reversed() {
            switch step {
            case .move(let from, let to, let entry):
                if let entry { try mover.move(entry, from: to, to: from) }
            case .makeDirectory(let path, _):
                try FileSystem.removeDirectoryIfEmpty(layout.absolute(path))
            case .removeDirectoryIfEmpty(let path, let mode):
                if try !FileSystem.exists(layout.absolute(path)) {
                    try FileSystem.makeDirectory(layout.absolute(path), mode: mode_t(mode))
                }
            }
        }
        try syncTouchedFolders(journal)
        if let staged = journal.staged {
            for file in staged { try FileSystem.removeFile(layout.absolute(file.stagedAt)) }
        } else {
            for container in journal.metadataBefore {
                try metadata.write(container)
            }
        }
        return mover.kept
    }

    /// Records the outcome — renames the staged records into place, the new active container first (the
    /// commit point of a switch) — and removes the journal and the trash it names. Nothing here needs
    /// free space.
    ///
    /// (A journal of version 2 writes its metadata, then the new active container, as it was written to.)
    func commit(_ journal: Journal) throws {
        if journal.staged != nil {
            try passCommitPoint(journal)
        } else {
            for container in journal.metadataAfter {
                try metadata.write(container)
            }
            if let active = journal.activeAfter {
                try metadata.recordActive(active) { report(.stateStaged) }
                report(.stateRecorded)
            }
        }
        try finish(journal)
    }

    /// Renames the first staged record into place — the new `state.json` of a switch: its commit point.
    /// Once the rename is done the change is made, whatever fails after it (making it durable included:
    /// ``finish(_:)`` does that).
    private func passCommitPoint(_ journal: Journal) throws {
        guard let first = journal.staged?.first else { return }
        do {
            try rename(first, committed: false)
        } catch {
            // A rename reported failed yet made (an I/O error reported after the fact) made the change.
            if try FileSystem.exists(layout.absolute(first.stagedAt)) { throw error }
        }
        if first.path == relative(layout.state) { report(.stateRecorded) }
    }

    /// Renames a staged record over the file it replaces and makes that durable.
    private func putInPlace(_ file: StagedFile, committed: Bool) throws {
        if try rename(file, committed: committed) {
            try FileSystem.syncDirectory((layout.absolute(file.stagedAt) as NSString).deletingLastPathComponent)
        }
    }

    /// Renames a staged record over the file it replaces; returns whether it did. One already gone was
    /// put in place before, which only a change past its commit point (`committed`) can have done.
    @discardableResult
    private func rename(_ file: StagedFile, committed: Bool) throws -> Bool {
        let staged = layout.absolute(file.stagedAt)
        if try !FileSystem.exists(staged) {
            if committed { return false }
            throw ContainerError.io(path: staged, underlying: SystemCallError("rename to '\(layout.absolute(file.path))'", code: ENOENT))
        }
        try FileSystem.rename(staged, to: layout.absolute(file.path))
        return true
    }

    /// Makes the commit point durable, puts in place the staged records a committed change had not yet,
    /// removes the journal and the trash it names.
    private func finish(_ journal: Journal) throws {
        if let first = journal.staged?.first {
            try FileSystem.syncDirectory((layout.absolute(first.path) as NSString).deletingLastPathComponent)
        }
        for file in journal.staged ?? [] { try putInPlace(file, committed: true) }
        try discard()
        for path in journal.removeAfter {
            try FileSystem.removeTree(layout.absolute(path))
        }
    }

    /// Removes the journal file (or the undo journal).
    ///
    /// The removal is not synced: if a power loss forgets it, the next opening finds a journal whose
    /// switch is committed, and only removes it again (or one being undone, which it undoes again:
    /// nothing is left to undo).
    func discard() throws {
        for path in layout.journals { try FileSystem.removeFile(path) }
        report(.journalRemoved)
    }

    /// Finishes a journal left by a crashed process; when its steps cannot be finished, undoes them
    /// instead. A journal being undone (the change failed or was interrupted, and said so) is undone.
    /// A journal that does not belong to the home's current state is refused, not replayed.
    ///
    /// - Returns: whether a journal was found.
    /// - Throws: ``ContainerError/Code/refusedJournal`` (nothing changed), or
    ///   ``ContainerError/Code/recoveryFailed``.
    @discardableResult
    func recover() throws -> Bool {
        guard let journal = try pending() else { return false }
        switch try standing(of: journal) {
        case .committed:
            try finish(journal)
        case .uncommitted where try FileSystem.exists(layout.undoJournal):
            do {
                try rollBack(journal)
                try discard()
            } catch {
                throw ContainerError.recoveryFailed(journal: layout.undoJournal, underlying: error)
            }
        case .uncommitted:
            do {
                try rollForward(journal)
            } catch let forwardError {
                do {
                    try undo(journal)
                } catch {
                    // undo() renames the journal to the undo journal first, unless that rename failed.
                    throw ContainerError.recoveryFailed(journal: journalOnDisk(), underlying: forwardError)
                }
                return true
            }
            try commit(journal)
        }
        return true
    }

    /// Moves this journal's entries; newcomers go to the conflicts folder of the container active when
    /// it was written.
    private func mover(for journal: Journal) throws -> RecordedEntryMover {
        try RecordedEntryMover(layout: layout, container: journal.activeBefore ?? Container.defaultUUID, report: report)
    }

    private func syncTouchedFolders(_ journal: Journal) throws {
        var folders: Set<String> = [layout.home]
        func addParent(_ relative: String) {
            folders.insert((layout.absolute(relative) as NSString).deletingLastPathComponent)
        }
        for step in journal.steps {
            switch step {
            case .move(let from, let to, _):
                addParent(from)
                addParent(to)
            case .makeDirectory(let path, _), .removeDirectoryIfEmpty(let path, _):
                addParent(path)
                folders.insert(layout.absolute(path))
            }
        }
        for folder in folders.sorted() {
            try FileSystem.syncDirectory(folder)
        }
    }
}
