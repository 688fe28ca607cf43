import Foundation
import Testing
@testable import Containers
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one tree-copying path of clone (and import): hard links stay links, permissions are kept, a
/// FIFO is refused by name and leaves nothing behind.
@Suite struct TreeCopyTests {
    private func status(_ path: String) throws -> stat {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return info
    }

    @Test(arguments: [false, true])
    func cloneKeepsHardLinksModesAndLinks(fromTheLiveHome: Bool) throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        let source = try containers.createNewContainer(name: "Source")
        try containers.activate(container: source)
        try home.write(["docs/a.txt": "shared", "bin/tool": "#!/bin/sh", "private/key": "k"])
        #expect(link(home.path + "/docs/a.txt", home.path + "/docs/b.txt") == 0)
        #expect(symlink("../docs/a.txt", home.path + "/bin/a-link") == 0)
        #expect(chmod(home.path + "/bin/tool", 0o751) == 0)
        #expect(chmod(home.path + "/private/key", 0o600) == 0)
        #expect(chmod(home.path + "/private", 0o700) == 0)
        if !fromTheLiveHome { try containers.activate(container: containers.resolve("DEFAULT")) }

        let copy = try containers.clone(container: source, name: "Copy")
        let data = HomeLayout(home: home.url).dataFolder(copy.uuid)
        let a = try status(data + "/docs/a.txt")
        let b = try status(data + "/docs/b.txt")
        #expect(a.st_ino == b.st_ino, "the hard-linked pair is one file in the copy")
        #expect(a.st_nlink == 2)
        #expect(try status(data + "/bin/tool").st_mode & 0o7777 == 0o751)
        #expect(try status(data + "/private/key").st_mode & 0o7777 == 0o600)
        #expect(try status(data + "/private").st_mode & 0o7777 == 0o700)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: data + "/bin/a-link") == "../docs/a.txt")
        let sourceA = try status((fromTheLiveHome ? home.path : HomeLayout(home: home.url).dataFolder(source.uuid)) + "/docs/a.txt")
        #expect(sourceA.st_ino != a.st_ino, "the copy is its own file, not a link into the source")
    }

    @Test func aFIFOIsRefusedByNameAndNothingIsCreated() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let containers = try AppContainer(home: home.url)
        try home.write(["a.txt": "a", "pipes/.keep": ""])
        #expect(mkfifo(home.path + "/pipes/fifo", 0o600) == 0)
        let before = try containers.containers.count
        #expect {
            try containers.clone(container: containers.resolve("DEFAULT"), name: "Copy")
        } throws: { error in
            "\(error)".contains("pipes/fifo") && "\(error)".contains("FIFO")
        }
        #expect(try containers.containers.count == before)
        let trash = HomeLayout(home: home.url).trash
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: trash)) ?? []).isEmpty, "nothing half-made is left in the trash")
    }

    @Test func aWrittenTreeIsSyncedAndGetsItsFolderModesLast() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = TreeWriter(root: folder.url.path)
        try writer.makeDirectory("locked", mode: 0o500)
        try writer.writeFile("locked/inside", mode: 0o640) { try $0.write(Data("x".utf8)) }
        try writer.makeHardLink("locked/second", to: "locked/inside")
        try writer.finish()
        #expect(try status(folder.url.path + "/locked").st_mode & 0o7777 == 0o500)
        #expect(try status(folder.url.path + "/locked/inside").st_mode & 0o7777 == 0o640)
        #expect(try status(folder.url.path + "/locked/second").st_nlink == 2)
        #expect(chmod(folder.url.path + "/locked", 0o700) == 0)
    }
}
