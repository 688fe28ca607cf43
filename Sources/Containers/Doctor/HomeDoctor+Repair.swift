package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

extension HomeDoctor {
    /// Repairs what it can, holding the home's lock: each inconsistency ``examine()`` finds is repaired
    /// in rank order (whatever moves entries first), then the home is examined again, so that a repair
    /// that uncovers another inconsistency repairs that one too. Nothing is deleted but temporary files
    /// (never the records a journal staged), the trash (only once no journal is left, since a journal
    /// may have entries to move back out of it) and a reset's renamed bookkeeping (as the next change of
    /// the home would); what cannot be read goes into ``quarantineFolder``.
    ///
    /// - Returns: every inconsistency found on the way, each repaired or remaining.
    /// - Throws: ``ContainerError/Code/unreachableHosts`` when running hosts are attached to the home,
    ///   since they would not notice entries moving under them; a file error when the home cannot even
    ///   be examined.
    package func repair(now: Date = Date()) throws -> [HomeDoctorFinding] {
        guard try !examine().isEmpty else { return [] }
        while true {
            if let findings = try HomeLock.holdingIfFree(layout, { try repairLocked(now: now) }) { return findings }
            try HomeLock.waitUntilFree(layout)
        }
    }

    private func repairLocked(now: Date) throws -> [HomeDoctorFinding] {
        let hosts = try AttachedHosts(layout: layout).live()
        if !hosts.isEmpty { throw ContainerError.unreachableHosts(pids: hosts.map(\.pid)) }
        var findings: [HomeDoctorFinding] = []
        // Each round repairs the lowest rank left; a few rounds cover every rank and what repairs uncover.
        for _ in 0..<8 {
            let pending = try examine().filter { item in
                item.isRepairable && !findings.contains { $0.inconsistency.isSame(as: item) }
            }
            guard let rank = pending.map(\.kind.repairRank).min() else { break }
            for item in pending where item.kind.repairRank == rank {
                do {
                    findings.append(HomeDoctorFinding(inconsistency: item, outcome: .repaired, note: try fix(item, now: now)))
                } catch {
                    findings.append(HomeDoctorFinding(inconsistency: item, outcome: .remains, note: "the repair failed: \(error)"))
                }
            }
        }
        for item in try examine() {
            if let index = findings.firstIndex(where: { $0.inconsistency.isSame(as: item) }) {
                if findings[index].outcome == .repaired {
                    findings[index].outcome = .remains
                    findings[index].note = (findings[index].note ?? "") + ", yet it is still there"
                }
            } else {
                findings.append(HomeDoctorFinding(inconsistency: item, outcome: .remains, note: item.isRepairable ? nil : item.repair))
            }
        }
        return findings
    }

    /// Repairs one inconsistency; returns what it did.
    private func fix(_ item: HomeInconsistency, now: Date) throws -> String {
        switch item.kind {
        case .interruptedReset:
            try ApplicationRecord.discardRemovedBookkeeping(layout)
            return "finished the reset"
        case .leftoverJournal:
            let undoing = isUndoJournal(item.path)
            try HomeLock.holdingStores(layout) { _ = try JournalRunner(layout: layout, report: { _ in }).recover() }
            return undoing ? "undid the change from its journal" : "finished the change from its journal"
        case .refusedJournal, .halfSwitchedHome:
            guard let data = try FileSystem.read(item.path) else { return "it was gone" }
            let journal = try Journal.decode(data, path: item.path)
            let placed = try placeEntries(of: journal, at: item.path, active: try? store.activeUUID())
            return placed + "; moved the journal to '\(try quarantine(item.path, now: now))'"
        case .damagedJournal, .movedAwayJournal, .damagedApplicationRecord, .strayEntry:
            return "moved it to '\(try quarantine(item.path, now: now))'"
        case .damagedContainerRecord:
            let folder = (item.path as NSString).deletingLastPathComponent
            guard let uuid = UUID(uuidString: (folder as NSString).lastPathComponent) else { return "nothing to do" }
            var why = "its record was missing"
            var note = ""
            if try FileSystem.exists(item.path) {
                let kept = try quarantine(item.path, now: now)
                why = "its damaged record is kept as '\(kept)'"
                note = "moved it to '\(kept)'; "
            }
            let record = try recoveredRecord(uuid, now: now, why: why)
            try store.write(record)
            return note + "wrote a new record named '\(record.name)'"
        case .missingActiveContainer:
            guard let uuid = UUID(uuidString: (item.path as NSString).lastPathComponent) else { return "nothing to do" }
            try FileSystem.makeDirectory(item.path)
            try FileSystem.makeDirectory(layout.dataFolder(uuid))
            let record = try recoveredRecord(uuid, now: now, why: "the state record named it active while it had no folder")
            try store.write(record)
            try FileSystem.syncDirectory(layout.containers)
            return "made its folder with a record named '\(record.name)'"
        case .missingStash:
            try FileSystem.makeDirectory(item.path)
            try FileSystem.syncDirectory((item.path as NSString).deletingLastPathComponent)
            return "made an empty stash folder"
        case .temporaryFile:
            try FileSystem.removeFile(item.path)
            return "removed it"
        case .looseMode:
            let mode: mode_t = try FileSystem.kind(at: item.path) == .directory ? 0o700 : 0o600
            guard chmod(item.path, mode) == 0 else {
                throw ContainerError.io(path: item.path, underlying: SystemCallError("chmod"))
            }
            return "set its mode to \(String(mode, radix: 8))"
        case .leftoverTrash:
            try FileSystem.removeTree(item.path)
            return "removed the trash"
        case .damagedStateRecord:
            return item.repair
        }
    }

    /// Moves the file or folder at `path` into the quarantine folder (mode 0700) under a name that says
    /// when and what it was; returns where it went.
    func quarantine(_ path: String, now: Date) throws -> String {
        try FileSystem.makeDirectory(layout.quarantine)
        let relative = path.hasPrefix(layout.bookkeeping + "/") ? String(path.dropFirst(layout.bookkeeping.count + 1)) : (path as NSString).lastPathComponent
        let name = RecordedEntryMover.timestamp(now) + "-" + relative.replacingOccurrences(of: "/", with: "-")
        var destination = layout.quarantine + "/" + name
        var counter = 1
        while try !FileSystem.renameWithoutReplacing(path, to: destination) {
            counter += 1
            destination = layout.quarantine + "/" + name + "-\(counter)"
        }
        try FileSystem.syncDirectory(layout.quarantine)
        try FileSystem.syncDirectory((path as NSString).deletingLastPathComponent)
        return destination
    }

    /// A new record for the container `uuid`, named so that no other container's name is taken.
    private func recoveredRecord(_ uuid: UUID, now: Date, why: String) throws -> Container {
        if uuid == Container.defaultUUID { return .implicitDefault(createdAt: now) }
        let taken = try store.partitionedContainers().readable.map(\.name)
        var name = Self.recoveredName(uuid)
        var counter = 1
        while taken.contains(where: { $0 == name || ContainerName.differOnlyByCase($0, name) }) {
            counter += 1
            name = Self.recoveredName(uuid) + " \(counter)"
        }
        return Container(
            uuid: uuid, name: name,
            description: "recovered by envscript container doctor: \(why)",
            createdAt: now)
    }
}
