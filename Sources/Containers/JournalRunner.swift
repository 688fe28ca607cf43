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

    /// Makes `journal` durable at `journal.json`. Nothing has moved yet.
    func write(_ journal: Journal) throws {
        let data: Data
        do {
            data = try journal.encoded()
        } catch {
            throw ContainerError.io(path: layout.journal, underlying: error)
        }
        try FileSystem.writeAtomically(data, to: layout.journal) { report(.journalStaged) }
        report(.journalWritten)
    }

    /// The journal left in the home, if any.
    func pending() throws -> Journal? {
        guard let data = try FileSystem.read(layout.journal) else { return nil }
        return try Journal.decode(data, path: layout.journal)
    }

    /// Does every step not yet done, then makes the folders it touched durable.
    func rollForward(_ journal: Journal) throws {
        let total = journal.moveCount
        var moveIndex = 0
        for step in journal.steps {
            switch step {
            case .move(let from, let to):
                moveIndex += 1
                let source = layout.absolute(from)
                let destination = layout.absolute(to)
                // Done when the destination is there. When neither is there the entry was removed by
                // someone else; there is nothing left to move, and stopping would leave the home
                // half-switched for good.
                if try !FileSystem.exists(destination), try FileSystem.exists(source) {
                    try FileSystem.rename(source, to: destination)
                }
                report(.moved(moveIndex, of: total))
            case .makeDirectory(let path, let mode):
                try FileSystem.makeDirectory(layout.absolute(path), mode: mode_t(mode))
            case .removeDirectoryIfEmpty(let path, _):
                try FileSystem.removeDirectoryIfEmpty(layout.absolute(path))
            }
        }
        try syncTouchedFolders(journal)
        report(.movesSynced)
    }

    /// Undoes every step that was done, last first, then makes the folders it touched durable.
    func rollBack(_ journal: Journal) throws {
        for step in journal.steps.reversed() {
            switch step {
            case .move(let from, let to):
                let source = layout.absolute(from)
                let destination = layout.absolute(to)
                if try FileSystem.exists(destination), try !FileSystem.exists(source) {
                    try FileSystem.rename(destination, to: source)
                }
            case .makeDirectory(let path, _):
                try FileSystem.removeDirectoryIfEmpty(layout.absolute(path))
            case .removeDirectoryIfEmpty(let path, let mode):
                if try !FileSystem.exists(layout.absolute(path)) {
                    try FileSystem.makeDirectory(layout.absolute(path), mode: mode_t(mode))
                }
            }
        }
        try syncTouchedFolders(journal)
    }

    /// Records the outcome — the new active container first (the commit point of a switch), then the
    /// metadata — and removes the journal and the trash it names.
    func commit(_ journal: Journal) throws {
        if let active = journal.activeAfter {
            try metadata.recordActive(active) { report(.stateStaged) }
            report(.stateRecorded)
        }
        for container in journal.metadataAfter {
            try metadata.write(container)
        }
        try discard()
        for path in journal.removeAfter {
            try FileSystem.removeTree(layout.absolute(path))
        }
    }

    /// Removes the journal file.
    ///
    /// The removal is not synced: if a power loss forgets it, the next opening replays a journal whose
    /// every step is done, which changes nothing.
    func discard() throws {
        try FileSystem.removeFile(layout.journal)
        report(.journalRemoved)
    }

    /// Finishes a journal left by a crashed process; when its steps cannot be finished (and the switch
    /// was not yet committed), undoes them instead.
    ///
    /// - Returns: whether a journal was found.
    @discardableResult
    func recover() throws -> Bool {
        guard let journal = try pending() else { return false }
        do {
            try rollForward(journal)
        } catch let forwardError {
            let committed = try journal.activeAfter.map { try metadata.activeUUID() == $0 } ?? false
            do {
                guard !committed else { throw forwardError }
                try rollBack(journal)
                try discard()
            } catch {
                throw ContainerError.recoveryFailed(journal: layout.journal, underlying: forwardError)
            }
            return true
        }
        try commit(journal)
        return true
    }

    private func syncTouchedFolders(_ journal: Journal) throws {
        var folders: Set<String> = [layout.home]
        func addParent(_ relative: String) {
            folders.insert((layout.absolute(relative) as NSString).deletingLastPathComponent)
        }
        for step in journal.steps {
            switch step {
            case .move(let from, let to):
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
