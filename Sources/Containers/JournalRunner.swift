import Foundation

/// Carries out a ``Journal``: writes it, replays its steps forward (or backward), commits its outcome
/// and removes it. Every method may be repeated after a crash at any point.
struct JournalRunner {
    let layout: HomeLayout
    let metadata: MetadataStore
    /// Told about each point passed, for tracing and crash tests.
    let report: (SwitchStep) -> Void

    init(layout: HomeLayout, report: @escaping (SwitchStep) -> Void) {
        self.layout = layout
        self.metadata = MetadataStore(layout: layout)
        self.report = report
    }

    /// Writes `journal`, does its steps and commits it; if a step fails, undoes the steps done and
    /// rethrows the failure.
    ///
    /// - Returns: the newcomers set aside to make way for the moves.
    func run(_ journal: Journal) throws -> [KeptNewcomer] {
        let recorded = try write(journal)
        let kept: [KeptNewcomer]
        do {
            kept = try rollForward(recorded)
        } catch let failure {
            do {
                try rollBack(recorded)
                try discard()
            } catch {
                // The journal stays: the next opening of the home finishes the change.
                throw ContainerError.recoveryFailed(journal: layout.journal, underlying: failure)
            }
            throw failure
        }
        try commit(recorded)
        return kept
    }

    /// Records what the journal needs to recognise its home — the active container, the stamp of
    /// `state.json`, the identity of each entry it moves — and makes it durable at `journal.json`.
    /// Nothing has moved yet.
    ///
    /// - Returns: the journal as written.
    @discardableResult
    func write(_ journal: Journal) throws -> Journal {
        var recorded = journal
        if recorded.activeBefore == nil { recorded.activeBefore = try metadata.activeUUID() }
        if recorded.stateBefore == nil { recorded.stateBefore = try FileStamp.of(layout.state) }
        recorded.steps = try journal.steps.map { step in
            guard case .move(let from, let to, nil) = step else { return step }
            return .move(from: from, to: to, entry: try EntryIdentity.of(layout.absolute(from)))
        }
        let data: Data
        do {
            data = try recorded.encoded()
        } catch {
            throw ContainerError.io(path: layout.journal, underlying: error)
        }
        try FileSystem.writeAtomically(data, to: layout.journal) { report(.journalStaged) }
        report(.journalWritten)
        return recorded
    }

    /// The journal left in the home, if any.
    ///
    /// - Throws: ``ContainerError/refusedJournal(path:reason:)`` when it is not a journal of this version.
    func pending() throws -> Journal? {
        guard let data = try FileSystem.read(layout.journal) else { return nil }
        return try Journal.decode(data, path: layout.journal)
    }

    /// Does every step not yet done, then makes the folders it touched durable.
    ///
    /// - Returns: the newcomers set aside to make way for the moves.
    @discardableResult
    func rollForward(_ journal: Journal) throws -> [KeptNewcomer] {
        var mover = mover(for: journal)
        let total = journal.moveCount
        var moveIndex = 0
        for step in journal.steps {
            switch step {
            case .move(let from, let to, let entry):
                moveIndex += 1
                if let entry { try mover.move(entry, from: from, to: to) }
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

    /// Undoes every step that was done, last first, makes the folders it touched durable and writes the
    /// metadata back. A newcomer in the place an entry returns to is set aside like one in the way of a
    /// move forward: undoing never moves a newcomer into a container's folder.
    ///
    /// - Returns: the newcomers set aside to make way for the entries returning.
    @discardableResult
    func rollBack(_ journal: Journal) throws -> [KeptNewcomer] {
        var mover = mover(for: journal)
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
        for container in journal.metadataBefore {
            try metadata.write(container)
        }
        return mover.kept
    }

    /// Records the outcome — the metadata, then the new active container (the commit point of a
    /// switch) — and removes the journal and the trash it names.
    ///
    /// The metadata comes first so that once the switch is committed nothing of it remains to be done
    /// but removals: a journal found with its switch committed is then discarded without writing
    /// anything (see ``standing(of:)``).
    func commit(_ journal: Journal) throws {
        for container in journal.metadataAfter {
            try metadata.write(container)
        }
        if let active = journal.activeAfter {
            try metadata.recordActive(active) { report(.stateStaged) }
            report(.stateRecorded)
        }
        try finish(journal)
    }

    /// Removes the journal and the trash it names.
    private func finish(_ journal: Journal) throws {
        try discard()
        for path in journal.removeAfter {
            try FileSystem.removeTree(layout.absolute(path))
        }
    }

    /// Removes the journal file.
    ///
    /// The removal is not synced: if a power loss forgets it, the next opening finds a journal whose
    /// switch is committed, and only removes it again.
    func discard() throws {
        try FileSystem.removeFile(layout.journal)
        report(.journalRemoved)
    }

    /// Finishes a journal left by a crashed process; when its steps cannot be finished, undoes them
    /// instead. A journal that does not belong to the home's current state is refused, not replayed.
    ///
    /// - Returns: whether a journal was found.
    /// - Throws: ``ContainerError/refusedJournal(path:reason:)`` (nothing changed), or
    ///   ``ContainerError/recoveryFailed(journal:underlying:)``.
    @discardableResult
    func recover() throws -> Bool {
        guard let journal = try pending() else { return false }
        switch try standing(of: journal) {
        case .committed:
            try finish(journal)
        case .uncommitted:
            do {
                try rollForward(journal)
            } catch let forwardError {
                do {
                    try rollBack(journal)
                    try discard()
                } catch {
                    throw ContainerError.recoveryFailed(journal: layout.journal, underlying: forwardError)
                }
                return true
            }
            try commit(journal)
        }
        return true
    }

    /// Moves this journal's entries; newcomers go to the conflicts folder of the container active when
    /// it was written.
    private func mover(for journal: Journal) -> RecordedEntryMover {
        RecordedEntryMover(layout: layout, container: journal.activeBefore ?? Container.defaultUUID, report: report)
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
