import Foundation
import Locking
import TestSupport
import Testing
@testable import Containers

/// A home given as a symbolic link to a folder on another file system is switched like any other: the
/// entries are told by the file system of the folder the link leads to, not of the link itself (#32).
/// And a switch whose first pass finds a recorded entry gone fails and is undone, rather than commit a
/// switch that moved nothing.
@Suite(.serialized) struct LinkedHomeTests {
    @Test func aHomeLinkedToAnotherFileSystemSwitchesItsDataBothWays() throws {
        let parent = try TemporaryHome()
        defer { parent.remove() }
        let disk = try MountedFileSystem.tmpfs(kibibytes: 8192)
        defer { disk.unmount() }
        let real = try TemporaryHome(in: disk.url)
        let link = parent.url.appendingPathComponent("linkhome")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real.url)
        let files = ["userfile.txt": "user", "Documents/report.txt": "report", "Documents/deep/note.txt": "note"]
        try real.write(files)
        let defaultTree = TemporaryHome.tree(files)

        let containers = try AppContainer(home: link)
        let x = try containers.createNewContainer(name: "X")
        let usage = try containers.diskUsage(of: containers.resolve("DEFAULT"))
        #expect(usage.entries == defaultTree.count, "the active container's entries are counted through the link")

        try containers.activate(container: x)
        #expect(try containers.activeContainer.uuid == x.uuid)
        expectTree(try real.snapshot(), [:], "the home with X active")
        expectTree(try real.stash(of: containers.resolve("DEFAULT")), defaultTree, "DEFAULT's stash")

        try real.write(["x.txt": "x"])
        try containers.activate(container: containers.resolve("DEFAULT"))
        expectTree(try real.snapshot(), defaultTree, "the home with DEFAULT active again")
        expectTree(try real.stash(of: x), ["x.txt": .file("x")], "X's stash")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
    }

    @Test func aSwitchWhoseRecordedEntryVanishesBeforeItsMoveFailsAndIsUndone() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["a.txt": "a", "b.txt": "b", "c.txt": "c"])
        let containers = try AppContainer(home: home.url)
        let x = try containers.createNewContainer(name: "X")
        // Someone removes an entry once the journal recorded it, before it is moved.
        let removed = Locked(false)
        containers.observeSwitchSteps { step in
            guard step == .journalWritten else { return }
            removed.withLock { $0 = true }
            try? FileManager.default.removeItem(atPath: home.path + "/b.txt")
        }
        #expect {
            try containers.activate(container: x)
        } throws: { error in
            guard case .io(let path, let underlying)? = (error as? ContainerError)?.reason else { return false }
            return path == home.path + "/b.txt" && underlying is MissingRecordedEntry
                && "\(error)".contains("neither there nor at")
        }
        #expect(removed.withLock { $0 })
        #expect(try AppContainer(home: home.url).activeContainer.uuid == Container.defaultUUID)
        expectTree(try home.snapshot(), ["a.txt": .file("a"), "c.txt": .file("c")], "the home, the switch undone")
        let layout = HomeLayout(home: home.url)
        #expect(!FileManager.default.fileExists(atPath: layout.journal))
        #expect(!FileManager.default.fileExists(atPath: layout.undoJournal))
    }
}

/// A journal's messages name the file that is on disk: `journal.undo.json` for a change being undone.
@Suite struct JournalFileNamingTests {
    @Test func aRefusedUndoJournalIsNamedAsSuch() throws {
        let fixture = try SwitchFixture(filesPerContainer: 20)
        defer { fixture.home.remove() }
        let layout = HomeLayout(home: fixture.home.url)
        let containers = try fixture.open()
        let copy = Locked<Data?>(nil)
        containers.observeSwitchSteps { step in
            if step == .journalWritten { copy.withLock { $0 = $0 ?? FileManager.default.contents(atPath: layout.journal) } }
        }
        try containers.activateContainer(uuid: fixture.a.uuid)
        try containers.activate(container: fixture.b)
        // A journal left over from the switch to A, put back as the journal of a change being undone.
        try #require(copy.withLock { $0 }).write(to: URL(fileURLWithPath: layout.undoJournal))

        #expect {
            _ = try fixture.open()
        } throws: { error in
            guard case .refusedJournal(let path, _)? = (error as? ContainerError)?.reason, path == layout.undoJournal else { return false }
            let message = "\(error)"
            return message.contains("'\(layout.undoJournal)'") && !message.contains("'\(layout.journal)'")
        }
        #expect(FileManager.default.fileExists(atPath: layout.undoJournal))
        #expect(!FileManager.default.fileExists(atPath: layout.journal))
    }
}
