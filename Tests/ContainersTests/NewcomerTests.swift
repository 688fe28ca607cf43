import Foundation
import Testing
@testable import Containers

import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything kept in the conflicts folder of `container`, by the path it had in the home (the
/// timestamp folders merged), and the number of timestamp folders.
func keptNewcomers(in home: TemporaryHome, of container: UUID) throws -> (tree: [String: TreeEntry], folders: Int) {
    let conflicts = HomeLayout(home: home.url).containerFolder(container) + "/conflicts"
    guard FileManager.default.fileExists(atPath: conflicts) else { return ([:], 0) }
    var tree: [String: TreeEntry] = [:]
    let folders = try FileManager.default.contentsOfDirectory(atPath: conflicts)
    for folder in folders {
        tree.merge(try TemporaryHome.snapshot(of: conflicts + "/" + folder)) { first, _ in first }
    }
    return (tree, folders.count)
}

/// Entries that an application makes in the home while a switch is under way — "newcomers" — are never
/// taken for the entries the switch moves, never overwritten and never moved into a container's stash:
/// they are kept in the conflicts folder of the container left and reported, and the switch completes.
@Suite struct NewcomerTests {
    static let defaultFiles = ["a.txt": "DEFAULT a", "Documents/d.txt": "DEFAULT d"]
    static let bFiles = ["Documents/d.txt": "B d", "notes.txt": "B notes"]

    /// A home whose DEFAULT container (active) holds `defaultFiles` and whose container B holds `bFiles`.
    /// A switch DEFAULT -> B then moves `Documents` (1) and `a.txt` (2) out, and B's `Documents` (3) and
    /// `notes.txt` (4) in.
    private func home(
        _ home: TemporaryHome, defaultFiles: [String: String] = defaultFiles, bFiles: [String: String] = bFiles,
        rules: [String] = []
    ) throws -> (AppContainer, Container) {
        try home.write(defaultFiles)
        let containers = try AppContainer(home: home.url)
        containers.customExcludeFiles = rules
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)
        try home.write(bFiles)
        try containers.activateContainer(uuid: Container.defaultUUID)
        return (containers, b)
    }

    /// Writes `files` (relative to the home) in place, the way an application would.
    private static func appWrites(_ files: [String: String], in home: TemporaryHome) {
        do { try home.write(files) } catch { Issue.record(error) }
    }

    @Test func aNewcomerInThePlaceOfAnIncomingEntryIsKeptReportedAndTheSwitchCompletes() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let (containers, b) = try self.home(home)
        let newcomers = ["notes.txt": "newcomer notes", "Documents/new.txt": "newcomer doc"]
        let log = EventLog()
        let reported = Locked<[KeptNewcomer]>([])
        containers.observeSwitchSteps { step in
            log.append(step.description)
            // Both entries of DEFAULT are out, B's are not in yet: the app writes where they go.
            if step == .moved(2, of: 4) { Self.appWrites(newcomers, in: home) }
            if case .keptNewcomer(let kept) = step { reported.withLock { $0.append(kept) } }
        }
        let announced = Locked<[KeptNewcomer]?>(nil)
        let observer = NotificationCenter.default.addObserver(
            forName: AppContainer.containerDidChangeNotification, object: containers, queue: nil
        ) { notification in
            announced.withLock { $0 = notification.userInfo?[AppContainer.keptNewcomersUserInfoKey] as? [KeptNewcomer] }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        try containers.activate(container: b)

        #expect(Array(log.events.drop(while: { $0 != "moved-2" }).prefix(6)) == [
            "moved-2", "kept-newcomer", "moved-3", "kept-newcomer", "moved-4", "moves-synced",
        ])
        let kept = reported.withLock { $0 }
        #expect(kept.map(\.path) == ["Documents", "notes.txt"])
        #expect(kept.allSatisfy { $0.container == Container.defaultUUID })
        let conflicts = HomeLayout(home: home.url).containerFolder(Container.defaultUUID) + "/conflicts/"
        for newcomer in kept {
            #expect(newcomer.keptAt.path.hasPrefix(conflicts) && newcomer.keptAt.path.hasSuffix("/" + newcomer.path))
            #expect(FileManager.default.fileExists(atPath: newcomer.keptAt.path))
        }
        #expect(announced.withLock { $0 } == kept, "the did-change notification lists the kept newcomers")

        #expect(try containers.activeContainer.uuid == b.uuid)
        expectTree(try home.snapshot(), TemporaryHome.tree(Self.bFiles), "live home: B's own entries")
        expectTree(try home.stash(of: b), [:], "B's stash, empty while B is active")
        expectTree(try TemporaryHome.snapshot(of: HomeLayout(home: home.url).dataFolder(Container.defaultUUID)),
                   TemporaryHome.tree(Self.defaultFiles), "DEFAULT's stash")
        let found = try keptNewcomers(in: home, of: Container.defaultUUID)
        expectTree(found.tree, TemporaryHome.tree(newcomers), "kept newcomers")
        #expect(found.folders == 1)

        // Later switches work and leave the kept newcomers alone.
        containers.observeSwitchSteps(nil)
        try containers.activateContainer(uuid: Container.defaultUUID)
        expectTree(try home.snapshot(), TemporaryHome.tree(Self.defaultFiles), "live home back on DEFAULT")
        try containers.activate(container: b)
        expectTree(try home.snapshot(), TemporaryHome.tree(Self.bFiles), "live home on B again")
        expectTree(try keptNewcomers(in: home, of: Container.defaultUUID).tree, TemporaryHome.tree(newcomers))
    }

    @Test func aSwitchWithoutNewcomersAnnouncesNone() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let (containers, b) = try self.home(home)
        let keys = Locked<Set<String>?>(nil)
        let observer = NotificationCenter.default.addObserver(
            forName: AppContainer.containerDidChangeNotification, object: containers, queue: nil
        ) { notification in
            let found = Set((notification.userInfo ?? [:]).keys.compactMap { $0.base as? String })
            keys.withLock { $0 = found }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try containers.activate(container: b)
        #expect(keys.withLock { $0 } == [AppContainer.toContainerUserInfoKey, AppContainer.fromContainerUserInfoKey])
        #expect(!FileManager.default.fileExists(
            atPath: HomeLayout(home: home.url).containerFolder(Container.defaultUUID) + "/conflicts"))
    }

    @Test func aNewcomerInTheStashThatAMoveOutFillsIsKept() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let (containers, b) = try self.home(home)
        let inStash = HomeLayout.dataFolder(Container.defaultUUID) + "/a.txt"
        containers.observeSwitchSteps { step in
            if step == .journalWritten { Self.appWrites([inStash: "stash newcomer"], in: home) }
        }
        try containers.activate(container: b)

        expectTree(try home.snapshot(), TemporaryHome.tree(Self.bFiles), "live home")
        expectTree(try TemporaryHome.snapshot(of: HomeLayout(home: home.url).dataFolder(Container.defaultUUID)),
                   TemporaryHome.tree(Self.defaultFiles), "DEFAULT's stash holds exactly DEFAULT's entries")
        expectTree(try keptNewcomers(in: home, of: Container.defaultUUID).tree,
                   TemporaryHome.tree([inStash: "stash newcomer"]), "kept newcomers")
        containers.observeSwitchSteps(nil)
        try containers.activateContainer(uuid: Container.defaultUUID)
        expectTree(try home.snapshot(), TemporaryHome.tree(Self.defaultFiles), "live home back on DEFAULT")
    }

    @Test func undoingAFailedSwitchKeepsANewcomerInThePlaceAnEntryReturnsTo() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let defaultFiles = [
            "Documents/d.txt": "DEFAULT d", "Library/Preferences/p.plist": "DEFAULT p", "z.txt": "DEFAULT z",
        ]
        let shared = ["Library/keep.plist": "shared"]
        let (containers, b) = try self.home(
            home, defaultFiles: defaultFiles.merging(shared) { a, _ in a }, bFiles: ["Documents/d.txt": "B d"],
            rules: ["keep.plist"])
        let layout = HomeLayout(home: home.url)
        // `Library` stays (it holds an excluded file), so DEFAULT's stash needs a `Library` folder for
        // `Library/Preferences`: a file there makes the switch fail after `Documents` moved out.
        let blocker = HomeLayout.dataFolder(Container.defaultUUID) + "/Library"
        containers.observeSwitchSteps { step in
            if step == .moved(1, of: 4) {
                Self.appWrites(["Documents/new.txt": "newcomer", blocker: "blocker"], in: home)
            }
        }
        #expect {
            try containers.activate(container: b)
        } throws: { error in
            guard case .io(let path, _)? = (error as? ContainerError)?.reason else { return false }
            return path == layout.absolute(blocker)
        }
        containers.observeSwitchSteps(nil)

        #expect(try containers.activeContainer.uuid == Container.defaultUUID)
        expectTree(try home.snapshot(), TemporaryHome.tree(defaultFiles.merging(shared) { a, _ in a }),
                   "DEFAULT's own entries are back in place")
        expectTree(try keptNewcomers(in: home, of: Container.defaultUUID).tree,
                   TemporaryHome.tree(["Documents/new.txt": "newcomer"]), "kept newcomers")
        expectTree(try home.stash(of: b), TemporaryHome.tree(["Documents/d.txt": "B d"]), "B's stash")
        try FileManager.default.removeItem(atPath: layout.absolute(blocker))
        expectTree(try TemporaryHome.snapshot(of: layout.dataFolder(Container.defaultUUID)), [:],
                   "DEFAULT's stash is empty while it is active")

        try containers.activate(container: b)
        expectTree(try home.snapshot(), TemporaryHome.tree(["Documents/d.txt": "B d"].merging(shared) { a, _ in a }))
        try containers.activateContainer(uuid: Container.defaultUUID)
        expectTree(try home.snapshot(), TemporaryHome.tree(defaultFiles.merging(shared) { a, _ in a }))
    }

    @Test func undoingAFailedSwitchNeverMovesANewcomerIntoAStash() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let (containers, b) = try self.home(home)
        let layout = HomeLayout(home: home.url)
        var planner = SwitchPlanner(layout: layout, rules: ExcludeRules([]))
        try planner.planMoveOut(into: HomeLayout.dataFolder(Container.defaultUUID), owner: "DEFAULT")
        try planner.planMoveIn(of: b.uuid)
        // A step that must fail (its parent folder does not exist), once every entry has moved.
        let journal = Journal(
            operation: "test", steps: planner.steps + [.makeDirectory(path: "no/such/parent", mode: 0o755)],
            activeAfter: b.uuid, metadataAfter: [b.activated(at: Date())], removeAfter: [])
        containers.observeSwitchSteps { step in
            // The app saves `notes.txt` the safe way — a new file renamed over the old — right after
            // B's `notes.txt` came in: the entry now there is the app's, not the one the switch moved.
            guard step == .moved(4, of: 4) else { return }
            Self.appWrites([".notes.txt.tmp": "newcomer notes"], in: home)
            if rename(home.path + "/.notes.txt.tmp", home.path + "/notes.txt") != 0 { Issue.record("rename failed") }
        }
        #expect(throws: ContainerError.self) {
            var change = ChangeInProgress()
            try containers.run(journal, in: &change)
        }
        containers.observeSwitchSteps(nil)

        #expect(try containers.activeContainer.uuid == Container.defaultUUID)
        expectTree(try home.snapshot(),
                   TemporaryHome.tree(Self.defaultFiles.merging(["notes.txt": "newcomer notes"]) { a, _ in a }),
                   "the app's notes.txt stays live with DEFAULT's own entries")
        expectTree(try home.stash(of: b), TemporaryHome.tree(["Documents/d.txt": "B d"]),
                   "B's stash got its Documents back, not the app's notes.txt")
        expectTree(try TemporaryHome.snapshot(of: layout.dataFolder(Container.defaultUUID)), [:], "DEFAULT's stash")
        #expect(!FileManager.default.fileExists(atPath: layout.journal))

        try containers.activate(container: b)
        expectTree(try home.snapshot(), TemporaryHome.tree(["Documents/d.txt": "B d"]))
    }

    @Test func aRenameThatWouldReplaceAnEntryMovesNothing() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["file": "source", "taken": "newcomer", "folder/inner": "inner"])
        try FileManager.default.createDirectory(atPath: home.path + "/empty", withIntermediateDirectories: false)
        #expect(try !FileSystem.renameWithoutReplacing(home.path + "/file", to: home.path + "/taken"))
        #expect(try !FileSystem.renameWithoutReplacing(home.path + "/folder", to: home.path + "/empty"))
        expectTree(try home.snapshot(), [
            "file": .file("source"), "taken": .file("newcomer"), "folder": .directory,
            "folder/inner": .file("inner"), "empty": .directory,
        ])
        #expect(try FileSystem.renameWithoutReplacing(home.path + "/file", to: home.path + "/moved"))
        #expect(try home.read("moved") == "source" && !home.exists("file"))
    }
}
