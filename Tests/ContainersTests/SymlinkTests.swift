import Foundation
import Testing
@testable import Containers

@Suite struct SymlinkTests {
    @Test func linksMoveAsLinksAndTheirTargetsAreNeverFollowed() throws {
        let home = try TemporaryHome()
        let outside = try TemporaryHome()
        defer { home.remove(); outside.remove() }
        try outside.write(["target.txt": "outside", "folder/inner.txt": "inner"])
        try home.write(["real/file.txt": "real"])
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: home.path + "/to-outside-file", withDestinationPath: outside.path + "/target.txt")
        try manager.createSymbolicLink(atPath: home.path + "/to-outside-folder", withDestinationPath: outside.path + "/folder")
        try manager.createSymbolicLink(atPath: home.path + "/to-real", withDestinationPath: "real")
        try manager.createSymbolicLink(atPath: home.path + "/dangling", withDestinationPath: "does/not/exist")
        try manager.createSymbolicLink(atPath: home.path + "/real/up", withDestinationPath: "..")
        let before = try home.snapshot()
        let outsideBefore = try outside.snapshot()

        let containers = try AppContainer(home: home.url)
        // A rule matching inside a linked folder must not make the switch look through the link.
        containers.customExcludeFiles = ["inner.txt"]
        let b = try containers.createNewContainer(name: "B")
        try containers.activate(container: b)
        #expect(try home.snapshot().isEmpty)
        let stash = try home.stash(of: containers.resolve("DEFAULT"))
        #expect(stash["to-outside-file"] == .link(outside.path + "/target.txt"))
        #expect(stash["to-outside-folder"] == .link(outside.path + "/folder"))
        #expect(stash["dangling"] == .link("does/not/exist"))
        #expect(stash["real/up"] == .link(".."))
        expectTree(try outside.snapshot(), outsideBefore, "the link targets outside the home")

        try containers.activate(container: containers.resolve("DEFAULT"))
        expectTree(try home.snapshot(), before)
        expectTree(try outside.snapshot(), outsideBefore, "the link targets outside the home")
    }

    @Test func cloneCopiesLinksAsLinks() throws {
        let home = try TemporaryHome()
        let outside = try TemporaryHome()
        defer { home.remove(); outside.remove() }
        try outside.write(["big/file": "not copied"])
        try home.write(["a.txt": "a"])
        try FileManager.default.createSymbolicLink(atPath: home.path + "/link", withDestinationPath: outside.path + "/big")
        try FileManager.default.createSymbolicLink(atPath: home.path + "/relative", withDestinationPath: "a.txt")
        let containers = try AppContainer(home: home.url)
        let copy = try containers.clone(container: containers.activeContainer, name: "copy")
        expectTree(try home.stash(of: copy), [
            "a.txt": .file("a"), "link": .link(outside.path + "/big"), "relative": .link("a.txt"),
        ])
    }

    @Test func aLinkedHomeFolderIsUsedThroughItsLink() throws {
        let real = try TemporaryHome()
        defer { real.remove() }
        let link = real.url.deletingLastPathComponent().appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real.url)
        defer { try? FileManager.default.removeItem(at: link) }
        try real.write(["a": "a"])
        let containers = try AppContainer(home: link)
        try containers.activate(container: containers.createNewContainer(name: "B"))
        #expect(try real.snapshot().isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
    }
}
