package import Foundation

/// Finds every inconsistency of a home (``examine()``) and repairs what it can without losing data
/// (``repair(now:)``): what cannot be read is moved into the quarantine folder of the home's bookkeeping,
/// never deleted.
///
/// It works on the home's files directly, not through an ``AppContainer``, whose opening replays (or
/// refuses) a journal left in the home. Examining takes no lock and writes nothing.
package struct HomeDoctor: Sendable {
    let layout: HomeLayout
    let store: MetadataStore

    /// A doctor for the home at `home`.
    package init(home: URL) {
        layout = HomeLayout(home: home)
        store = MetadataStore(layout: layout)
    }

    /// Where the repairs put what they cannot read: `<home>/.envscript-containers/quarantine`.
    package var quarantineFolder: String { layout.quarantine }

    /// Added to the message about a damaged `container.json`.
    static let damagedRecordAdvice =
        "; 'envscript container doctor' lists every problem of the home, and 'envscript container doctor --repair' sets the damaged record aside and keeps the container's data under a new record"

    /// Every inconsistency of the home, in the order they are repaired. Writes nothing.
    package func examine() throws -> [HomeInconsistency] {
        var found: [HomeInconsistency] = []
        if try FileSystem.exists(layout.removedBookkeeping) {
            found.append(HomeInconsistency(
                .interruptedReset, layout.removedBookkeeping,
                problem: "a reset was interrupted after it renamed the bookkeeping folder away",
                repair: "finish the reset: keep the application record, then remove the renamed folder (the next opening of the home does the same)"))
        }
        guard try FileSystem.kind(at: layout.bookkeeping) == .directory else { return found }
        found += applicationRecordProblems()
        let active = stateProblems(into: &found)
        let journals = try journalProblems(active: active)
        found += journals
        found += try containerProblems(active: active, journalExplains: !journals.isEmpty)
        found += try temporaryFiles()
        found += try looseModes()
        // While a journal is there, the trash may hold the entries it is to move back: never offered.
        if journals.isEmpty, try !anyJournalIsThere(), try FileSystem.exists(layout.trash) {
            found.append(HomeInconsistency(
                .leftoverTrash, layout.trash,
                problem: "an interrupted change left entries that were being removed in the trash",
                repair: "remove the trash, as the next change of the home would"))
        }
        return found.sorted { $0.kind.repairRank < $1.kind.repairRank }
    }

    private func applicationRecordProblems() -> [HomeInconsistency] {
        do {
            _ = try ApplicationRecord.read(layout)
            return []
        } catch {
            return [HomeInconsistency(
                .damagedApplicationRecord, layout.applicationRecord, problem: "\(error)",
                repair: "move it into the quarantine folder; the next host that opens the home records its application again")]
        }
    }

    /// Checks `state.json`; returns the active container when it is known.
    private func stateProblems(into found: inout [HomeInconsistency]) -> UUID? {
        let active: UUID
        do {
            active = try store.activeUUID()
        } catch {
            found.append(HomeInconsistency(
                .damagedStateRecord, layout.state, problem: "\(error)",
                repair: "nothing: only you know which container's entries are in the home; write {\"activeContainer\": \"<its UUID>\", \"version\": 1} into '\(layout.state)', then run doctor again",
                isRepairable: false))
            return nil
        }
        let folder = layout.containerFolder(active)
        // Without a state record (a home never switched), DEFAULT is active and its folder made on first use.
        if (try? FileSystem.exists(layout.state)) == true, (try? FileSystem.kind(at: folder)) != .directory {
            found.append(HomeInconsistency(
                .missingActiveContainer, folder,
                problem: "'\(layout.state)' names container \(active.uuidString) as active, but it has no folder, so the entries of the home belong to no container",
                repair: "make its folder with an empty stash and a new record named '\(Self.recoveredName(active))', so the entries of the home belong to a container again"))
        }
        return active
    }

    /// Checks each entry of the containers folder: records, stashes, stray entries.
    private func containerProblems(active: UUID?, journalExplains: Bool) throws -> [HomeInconsistency] {
        guard try FileSystem.kind(at: layout.containers) == .directory else { return [] }
        var found: [HomeInconsistency] = []
        for entry in try FileSystem.list(layout.containers) where !Self.isTemporaryFile(entry.name) {
            let path = layout.containers + "/" + entry.name
            guard entry.kind == .directory, let uuid = UUID(uuidString: entry.name), uuid.uuidString == entry.name else {
                found.append(HomeInconsistency(
                    .strayEntry, path, problem: "it is in the containers folder but is not a container's folder (named by its UUID)",
                    repair: "move it into the quarantine folder"))
                continue
            }
            let container: Container?
            do {
                container = try store.recordedContainer(uuid)
            } catch {
                let reason = if case .corruptMetadata(_, let reason)? = (error as? ContainerError)?.reason { reason } else { "\(error)" }
                found.append(HomeInconsistency(
                    .damagedContainerRecord, layout.metadata(uuid),
                    problem: "the record of container \(uuid.uuidString) is unusable: \(reason)",
                    repair: "move the record into the quarantine folder and write a new one named '\(Self.recoveredName(uuid))'; the container's data stays where it is"))
                continue
            }
            guard let container, !journalExplains else { continue }
            let stash = layout.dataFolder(uuid)
            if uuid == active {
                let stashed = try FileSystem.kind(at: stash) == .directory ? try FileSystem.list(stash).map(\.name) : []
                if !stashed.isEmpty {
                    found.append(HomeInconsistency(
                        .halfSwitchedHome, stash,
                        problem: "container '\(container.name)' is active according to '\(layout.state)', yet its stash holds \(stashed.count) \(stashed.count == 1 ? "entry" : "entries") (\(stashed.prefix(3).map { "'\($0)'" }.joined(separator: ", "))\(stashed.count > 3 ? ", ..." : "")) that belong in the home: a change stopped half way and its journal is gone",
                        repair: "nothing: without the journal nobody can tell which entries of the home came from another container; put the journal back as '\(layout.journal)' (or beside it as journal.json.<anything>) and run doctor again — but a journal that was being undone (the change failed or was interrupted) goes back as '\(layout.undoJournal)', never as journal.json, which would carry out the change reported as not made — or move the entries back by hand",
                        isRepairable: false))
                }
            } else if try FileSystem.kind(at: stash) != .directory {
                found.append(HomeInconsistency(
                    .missingStash, stash,
                    problem: "container '\(container.name)' is not active but has no stash folder; if a change stopped half way, its entries may be in the home",
                    repair: "make an empty stash folder (mode 0700)"))
            }
        }
        return found
    }

    /// Temporary files of atomic writes that a crash interrupted — but not the records a journal staged
    /// (``Journal/staged``): its commit renames them into place, so they stay as long as it does; while a
    /// journal left in the home cannot be read, none is reported.
    private func temporaryFiles() throws -> [HomeInconsistency] {
        guard let staged = try stagedFilesOfJournals() else { return [] }
        var folders = [layout.bookkeeping, layout.tools, layout.hosts]
        folders += try store.containerUUIDs().map { layout.containerFolder($0) }
        var found: [HomeInconsistency] = []
        for folder in folders where try FileSystem.kind(at: folder) == .directory {
            for entry in try FileSystem.list(folder)
            where Self.isTemporaryFile(entry.name) && entry.kind != .directory && !staged.contains(folder + "/" + entry.name) {
                found.append(HomeInconsistency(
                    .temporaryFile, folder + "/" + entry.name,
                    problem: "a temporary file of a write that was interrupted",
                    repair: "remove it (the file it was to replace is untouched)"))
            }
        }
        return found
    }

    /// Bookkeeping folders other than 0700 and files other than 0600 that others may read or enter.
    private func looseModes() throws -> [HomeInconsistency] {
        var folders = [layout.bookkeeping, layout.containers, layout.trash, layout.hosts, layout.tools, layout.quarantine]
        var files = [layout.state, layout.applicationRecord, layout.lock, layout.storesLock] + layout.journals
        for uuid in try store.containerUUIDs() {
            let folder = layout.containerFolder(uuid)
            folders += [folder, folder + "/data", folder + "/hidden", folder + "/conflicts"]
            files.append(layout.metadata(uuid))
        }
        var found: [HomeInconsistency] = []
        for (paths, kind, mode) in [(folders, EntryKind.directory, mode_t(0o700)), (files, EntryKind.regularFile, mode_t(0o600))] {
            for path in paths {
                guard let info = try FileSystem.status(at: path), FileSystem.kind(ofMode: info.st_mode) == kind,
                      info.st_mode & 0o077 != 0
                else { continue }
                let current = String(info.st_mode & 0o7777, radix: 8)
                found.append(HomeInconsistency(
                    .looseMode, path,
                    problem: "its mode is \(current), so other users may \(kind == .directory ? "list or enter" : "read") it; the bookkeeping is private",
                    repair: "set its mode to \(String(mode, radix: 8))"))
            }
        }
        return found
    }

    /// Whether `name` is a temporary file of ``FileSystem/writeAtomically(_:to:staged:)``.
    static func isTemporaryFile(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(".tmp-")
    }

    /// The name of the record written for a container whose record was lost.
    static func recoveredName(_ uuid: UUID) -> String {
        uuid == Container.defaultUUID ? Container.defaultName : "Recovered " + uuid.uuidString.prefix(8)
    }
}

extension HomeLayout {
    /// `<home>/.envscript-containers/quarantine`: where `container doctor --repair` puts what it cannot read.
    var quarantine: String { bookkeeping + "/quarantine" }
}
