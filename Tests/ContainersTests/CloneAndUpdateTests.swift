import Foundation
import Testing
@testable import Containers
import TestSupport

@Suite struct CloneAndUpdateTests {
    @Test func cloningAnInactiveContainerCopiesItsStash() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)
        let files = ["b.txt": "b", "Library/deep/file": "deep"]
        try home.write(files)
        try containers.activate(container: containers.resolve("DEFAULT"))

        let copy = try containers.clone(container: b, name: "B copy", description: "from B")
        #expect(copy.name == "B copy")
        #expect(copy.description == "from B")
        #expect(copy.activatedCount == 0)
        #expect(copy.uuid != b.uuid)
        expectTree(try home.stash(of: copy), TemporaryHome.tree(files))
        expectTree(try home.stash(of: b), TemporaryHome.tree(files))

        try containers.activate(container: copy)
        expectTree(try home.snapshot(), TemporaryHome.tree(files))
        try home.write(["b.txt": "changed in copy"])
        try containers.activate(container: b)
        #expect(try home.read("b.txt") == "b", "the copy is independent")
    }

    @Test func cloningTheActiveContainerCopiesTheLiveHome() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let files = ["a.txt": "a", "Documents/x/y.txt": "y", "empty-folder/.keep": ""]
        try home.write(files)
        let containers = try AppContainer(home: home.url)
        let flushes = Counter()
        let participant = RecordingParticipant(onFlush: { flushes.next() })
        containers.add(participant: participant)

        let copy = try containers.clone(container: containers.activeContainer, name: "snapshot")
        #expect(flushes.value == 1, "participants flush before the live home is copied")
        expectTree(try home.stash(of: copy), TemporaryHome.tree(files))
        expectTree(try home.snapshot(), TemporaryHome.tree(files), "the source is untouched")
        #expect(try containers.containers.map(\.name) == ["DEFAULT", "snapshot"])
    }

    @Test func cloneKeepsPermissions() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.write(["script.sh": "#!/bin/sh", "private/secret": "s"])
        try FileManager.default.setAttributes([.posixPermissions: 0o751], ofItemAtPath: home.path + "/script.sh")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.path + "/private")
        let containers = try AppContainer(home: home.url)
        let copy = try containers.clone(container: containers.activeContainer, name: "copy")
        let data = HomeLayout(home: home.url).dataFolder(copy.uuid)
        let scriptMode = try FileManager.default.attributesOfItem(atPath: data + "/script.sh")[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: data + "/private")[.posixPermissions] as? Int
        #expect(scriptMode == 0o751)
        #expect(folderMode == 0o700)
    }

    @Test func aCloneNeedsAFreshValidName() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B")
        #expect(throws: ContainerError.self) { try containers.clone(container: b, name: "B") }
        #expect(throws: ContainerError.self) { try containers.clone(container: b, name: "") }
        #expect(try containers.containers.count == 2)
    }

    @Test func updatingNameAndDescriptionIsPersisted() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let b = try containers.createNewContainer(name: "B", description: "old")
        let renamed = try containers.updateInfo(container: b, name: "Bee")
        #expect(renamed.name == "Bee")
        #expect(renamed.description == "old")
        let described = try containers.updateInfo(container: b, description: "new")
        #expect(described.name == "Bee")
        #expect(described.description == "new")
        let cleared = try containers.updateInfo(container: b, description: "")
        #expect(cleared.description == nil)
        #expect(try AppContainer(home: home.url).resolve("Bee") == cleared)
        #expect(cleared.createdAt == b.createdAt)
        #expect(try containers.updateInfo(container: b, name: "Bee") == cleared, "keeping the name is fine")
    }

    @Test func updateRejectsTakenAndInvalidNamesAndRenamingDefault() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let a = try containers.createNewContainer(name: "A")
        try containers.createNewContainer(name: "B")
        #expect {
            try containers.updateInfo(container: a, name: "B")
        } throws: { error in
            "\(error)".contains("a container named 'B' already exists")
        }
        #expect(throws: ContainerError.self) { try containers.updateInfo(container: a, name: "bad\nname") }
        let defaultContainer = try containers.resolve("DEFAULT")
        #expect {
            try containers.updateInfo(container: defaultContainer, name: "ORIGINAL")
        } throws: { error in
            "\(error)".contains("DEFAULT container's name cannot be changed")
        }
        let described = try containers.updateInfo(container: defaultContainer, description: "the shipped data")
        #expect(described.description == "the shipped data")
        #expect(described.name == "DEFAULT")
    }
}

/// A participant that records its calls.
final class RecordingParticipant: SwitchParticipant, @unchecked Sendable {
    let onFlush: () throws -> Void
    let onReload: () -> Void

    init(onFlush: @escaping () throws -> Void = {}, onReload: @escaping () -> Void = {}) {
        self.onFlush = onFlush
        self.onReload = onReload
    }

    func prepareForSwitch() throws { try onFlush() }
    func containerDidSwitch() { onReload() }
}
