import Foundation
import Testing
@testable import Containers
import TestSupport

@Suite struct DeleteCleanResetTests {
    /// A home with DEFAULT's original files and a container B with its own, B inactive.
    private func makeHome() throws -> (TemporaryHome, AppContainer, Container) {
        let home = try TemporaryHome()
        try home.write(["original.txt": "o", "Library/o.plist": "op"])
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)
        try home.write(["b.txt": "b"])
        try containers.activate(container: containers.resolve("DEFAULT"))
        return (home, containers, b)
    }

    @Test func deletingAnInactiveContainerRemovesItAndItsFiles() throws {
        let (home, containers, b) = try makeHome()
        defer { home.remove() }
        try containers.delete(container: b)
        #expect(try containers.containers.map(\.name) == ["DEFAULT"])
        #expect(!FileManager.default.fileExists(atPath: HomeLayout(home: home.url).containerFolder(b.uuid)))
        expectTree(try home.snapshot(), TemporaryHome.tree(["original.txt": "o", "Library/o.plist": "op"]))
        #expect(throws: ContainerError.self) { try containers.delete(container: b) }
    }

    @Test func deletingTheActiveContainerFirstActivatesDefault() throws {
        let (home, containers, b) = try makeHome()
        defer { home.remove() }
        try containers.activate(container: b)
        let switches = Counter()
        containers.addDidChangeHook { to, from in
            if to.isDefault, from?.uuid == b.uuid { switches.next() }
        }
        try containers.deleteContainer(uuid: b.uuid.uuidString)
        #expect(switches.value == 1)
        #expect(try containers.activeContainer.isDefault)
        expectTree(try home.snapshot(), TemporaryHome.tree(["original.txt": "o", "Library/o.plist": "op"]))
        #expect(try containers.container(uuid: b.uuid) == nil)
    }

    @Test func aCancelledSwitchAlsoCancelsTheDeletionOfTheActiveContainer() throws {
        let (home, containers, b) = try makeHome()
        defer { home.remove() }
        try containers.activate(container: b)
        struct Refused: Error {}
        containers.addWillChangeHook { _, _ in throw Refused() }
        #expect(throws: ContainerError.self) { try containers.delete(container: b) }
        #expect(try containers.activeContainer.uuid == b.uuid)
        expectTree(try home.snapshot(), TemporaryHome.tree(["b.txt": "b"]))
    }

    @Test func defaultCannotBeDeleted() throws {
        let (home, containers, _) = try makeHome()
        defer { home.remove() }
        #expect {
            try containers.delete(container: containers.resolve("DEFAULT"))
        } throws: { error in
            guard (error as? ContainerError)?.code == .cannotDeleteDefault else { return false }
            return "\(error)".contains("cannot be deleted")
        }
    }

    @Test func cleaningAnInactiveContainerEmptiesItsStash() throws {
        let (home, containers, b) = try makeHome()
        defer { home.remove() }
        try containers.clean(container: b)
        #expect(try home.stash(of: b).isEmpty)
        #expect(try containers.container(uuid: b.uuid) != nil)
        try containers.activate(container: b)
        #expect(try home.snapshot().isEmpty)
        #expect(try home.stash(of: containers.resolve("DEFAULT")) == TemporaryHome.tree(["original.txt": "o", "Library/o.plist": "op"]))
    }

    @Test func cleaningTheActiveContainerEmptiesTheLiveHomeAndReloadsParticipants() throws {
        let (home, containers, b) = try makeHome()
        defer { home.remove() }
        let reloads = Counter()
        let participant = RecordingParticipant(onReload: { reloads.next() })
        containers.add(participant: participant)
        try containers.cleanContainer(uuid: Container.defaultUUID)
        #expect(reloads.value == 1)
        #expect(try home.snapshot().isEmpty)
        expectTree(try home.stash(of: b), TemporaryHome.tree(["b.txt": "b"]))
        #expect(FileManager.default.fileExists(atPath: home.path + "/.envscript-containers/state.json"))
    }

    @Test func resetActivatesDefaultAndRemovesEverythingElse() throws {
        let (home, containers, b) = try makeHome()
        defer { home.remove() }
        try containers.createNewContainer(name: "C")
        try containers.activate(container: b)
        try containers.reset()
        expectTree(try home.snapshot(), TemporaryHome.tree(["original.txt": "o", "Library/o.plist": "op"]))
        #expect(!home.exists(".envscript-containers"))
        #expect(!home.exists(".envscript-containers.removed"))
        #expect(try containers.containers.map(\.name) == ["DEFAULT"])
        #expect(try containers.activeContainer.isDefault)

        // The home is usable again, as if new.
        let again = try containers.createNewContainer(name: "B")
        try containers.activate(container: again)
        #expect(try home.snapshot().isEmpty)
    }

    @Test func resettingANeverSwitchedHomeChangesNothing() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["a": "a"])
        try AppContainer(home: home.url).reset()
        expectTree(try home.snapshot(), TemporaryHome.tree(["a": "a"]))
        #expect(!home.exists(".envscript-containers"))
    }

    @Test func resetKeepsExcludedFiles() throws {
        let (home, containers, b) = try makeHome()
        defer { home.remove() }
        containers.customExcludeFiles = ["shared.plist"]
        try containers.activate(container: b)
        try home.write(["shared.plist": "shared"])
        try containers.reset()
        expectTree(try home.snapshot(), TemporaryHome.tree(["original.txt": "o", "Library/o.plist": "op", "shared.plist": "shared"]))
    }
}
