import ContainerSharing
import Containers
import Foundation
import Testing
import TestSupport
import ZIPFoundation

#if canImport(Glibc)
import Glibc
#endif

/// Export, import under a new name, diff: nothing differs but the name.
@Suite struct RoundTripTests {
    @Test func exportThenImportGivesTheSameContainerUnderANewName() throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        let containers = fixture.containers
        let debug = try containers.createNewContainer(name: "Debug", description: "a logged-in state")
        try containers.activate(container: debug)
        try fixture.write(["docs/a.txt": "alpha", "docs/deep/b.txt": "beta", "empty/.keep": ""])
        try FileManager.default.createDirectory(at: fixture.home.appendingPathComponent("bare"), withIntermediateDirectories: true)
        #expect(link(fixture.home.path + "/docs/a.txt", fixture.home.path + "/docs/a-again.txt") == 0)
        #expect(symlink("docs/deep/b.txt", fixture.home.path + "/b-link") == 0)
        #expect(chmod(fixture.home.path + "/docs/a.txt", 0o600) == 0)
        try fixture.writePreferences(state: ["user.name": "ada"], overrides: ["checkout": ["max_items": 5]])

        let archive = fixture.folder.url.appendingPathComponent("debug.zip")
        let manifest = try containers.export(container: debug, to: archive)
        #expect(manifest.container.name == "Debug")
        // Names in byte order: "a-again.txt" comes first, so "a.txt" is recorded as its second name.
        #expect(manifest.entries.contains { $0.path == "data/docs/a.txt" && $0.hardLinkOf == "data/docs/a-again.txt" })
        #expect(manifest.entries.contains { $0.path == "data/b-link" && $0.target == "docs/deep/b.txt" })

        // Info-ZIP reads it: a standard zip.
        let check = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/unzip"), ["-t", archive.path], in: fixture.folder.url,
            environment: ProcessInfo.processInfo.environment)
        #expect(check.status == 0, "\(check.standardOutput)")

        #expect {
            try containers.importContainer(from: archive)
        } throws: { error in
            guard case .duplicateName("Debug")? = (error as? ContainerError)?.reason else { return false }
            return true
        }
        let copy = try containers.importContainer(from: archive, name: "Debug copy")
        #expect(copy.uuid != debug.uuid)
        #expect(copy.description == "a logged-in state")
        #expect(try containers.activeContainer.uuid == debug.uuid, "an import never touches the active container")

        let diff = try containers.diff(.container(debug), .container(copy))
        #expect(diff.isEmpty, "\(diff)")
        #expect(try containers.diff(.container(copy), .archive(archive)).isEmpty)

        let data = fixture.home.path + "/.envscript-containers/containers/\(copy.uuid.uuidString)/data"
        var first = stat(), second = stat()
        #expect(lstat(data + "/docs/a.txt", &first) == 0 && lstat(data + "/docs/a-again.txt", &second) == 0)
        #expect(first.st_ino == second.st_ino, "the hard link is kept")
        #expect(first.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: data + "/b-link") == "docs/deep/b.txt")

        try containers.activate(container: copy)
        #expect(try String(contentsOf: fixture.home.appendingPathComponent("b-link"), encoding: .utf8) == "beta")
    }

    /// A read-only folder with content and a set-user-ID file: the import keeps the folder open to its
    /// owner (so the container can be switched and deleted) and never carries the set-user-ID bit.
    @Test func importedModesNeverLockTheOwnerOutNorCarrySetUserID() throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        let containers = fixture.containers
        var archive = CraftedArchive()
        archive.addFolder("data/locked")
        archive.entries[0].mode = 0o555
        archive.addFile("data/locked/inside.txt", "x")
        archive.entries[1].mode = 0o4755
        let url = fixture.folder.url.appendingPathComponent("modes.zip")
        try archive.write(to: url)
        let imported = try containers.importContainer(from: url, name: "Modes")
        let data = fixture.home.path + "/.envscript-containers/containers/\(imported.uuid.uuidString)/data"
        var folder = stat(), file = stat()
        #expect(lstat(data + "/locked", &folder) == 0 && lstat(data + "/locked/inside.txt", &file) == 0)
        #expect(folder.st_mode & 0o7777 == 0o755)
        #expect(file.st_mode & 0o7777 == 0o755)
        try containers.activate(container: imported)
        try containers.activate(container: containers.resolve("DEFAULT"))
        try containers.delete(container: imported)
        #expect(try containers.container(named: "Modes") == nil)
        #expect(try containers.createNewContainer(name: "After").name == "After", "the home still changes")
    }

    @Test func anExportReplacesTheArchiveWholeAndLeavesNoTemporaryFile() throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        try fixture.write(["a.txt": "one"])
        let archive = fixture.folder.url.appendingPathComponent("out.zip")
        try Data("old".utf8).write(to: archive)
        let manifest = try fixture.containers.export(container: fixture.containers.resolve("DEFAULT"), to: archive)
        #expect(manifest.entries.map(\.path) == ["data/a.txt"])
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path)
        #expect(names.sorted() == ["home", "out.zip"])
        #expect(try Archive(url: archive, accessMode: .read)[ArchiveManifest.entryName] != nil)
    }

    @Test func diffListsEntriesAndPreferenceKeysThatDiffer() throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        let containers = fixture.containers
        try fixture.write(["same.txt": "same", "changed.txt": "before", "gone.txt": "x"])
        try fixture.writePreferences(
            state: ["kept": 1, "dropped": true, "edited": "a"],
            overrides: ["checkout": ["max_items": 5, "express": true]])
        let base = try containers.clone(container: containers.resolve("DEFAULT"), name: "Base")
        try FileManager.default.removeItem(at: fixture.home.appendingPathComponent("gone.txt"))
        try fixture.write(["changed.txt": "after!", "new/added.txt": "new"])
        try fixture.writePreferences(
            state: ["kept": 1, "edited": "b", "fresh": 2.5],
            overrides: ["checkout": ["max_items": 7], "search": ["engine": "v2"]])

        let diff = try containers.diff(.container(base), .container(containers.resolve("DEFAULT")))
        #expect(diff.added.map(\.path) == ["new", "new/added.txt"])
        #expect(diff.removed.map(\.path) == ["gone.txt"])
        #expect(diff.changed.map(\.path) == ["Library/Preferences/app.plist", "changed.txt"])
        #expect(diff.changed.last?.sizeBefore == 6 && diff.changed.last?.sizeAfter == 6)
        #expect(diff.keysAdded.map { "\($0.kind.rawValue) \($0.name)" } == ["state fresh", "tweak search.engine"])
        #expect(diff.keysRemoved.map { "\($0.kind.rawValue) \($0.name)" } == ["state dropped", "tweak checkout.express"])
        #expect(diff.keysChanged.map { "\($0.kind.rawValue) \($0.name)" } == ["state edited", "tweak checkout.max_items"])
        #expect(diff.keysChanged.last?.before == .int(5) && diff.keysChanged.last?.after == .int(7))
    }

    /// A diff's preference values are JSON: data as Base64 text, a date as ISO 8601 text, structures as
    /// arrays and objects — what `container diff --json` and the API write.
    @Test func preferenceValuesInADiffAreJSON() throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        let containers = fixture.containers
        try fixture.writePreferences(state: ["blob": Data([1, 2, 3]), "seen": Date(timeIntervalSince1970: 0)], overrides: [:])
        let base = try containers.clone(container: containers.resolve("DEFAULT"), name: "Base")
        try fixture.writePreferences(
            state: ["blob": Data([4, 5]), "seen": Date(timeIntervalSince1970: 86_400), "list": [1, "two"]], overrides: [:])

        let diff = try containers.diff(.container(base), .container(containers.resolve("DEFAULT")))
        let changed = Dictionary(uniqueKeysWithValues: diff.keysChanged.map { ($0.name, $0) })
        #expect(changed["blob"]?.before == .string("AQID") && changed["blob"]?.after == .string("BAU="))
        #expect(changed["seen"]?.before == .string("1970-01-01T00:00:00.000Z"))
        #expect(changed["seen"]?.after == .string("1970-01-02T00:00:00.000Z"))
        #expect(diff.keysAdded.first { $0.name == "list" }?.after == [1, "two"])
    }
}
