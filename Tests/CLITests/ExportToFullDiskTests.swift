import Foundation
import TestSupport
import Testing

/// `container export` to a file system without room for the archive says what happened in words,
/// fails with status 1, and leaves no partial archive behind (an archive already there stays whole).
@Suite(.timeLimit(.minutes(15))) struct ExportToFullDiskTests {
    @Test func anExportToAFullDiskSaysNoSpaceIsLeftAndLeavesNothing() throws {
        let scratch = try Scratch()
        let mounted = try MountedFileSystem.tmpfs(kibibytes: 64)
        defer { mounted.unmount() }
        let home = scratch.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // Random bytes do not compress: the archive needs more than the file system has.
        var random = SeededRandom(seed: 19)
        try Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: home.appendingPathComponent("big.bin"))
        let archive = mounted.url.appendingPathComponent("out.zip").path

        let export = try scratch.run("container", "export", "DEFAULT", "--output", archive, "--home", home.path)
        #expect(export.status == 1, "\(export.standardError)")
        #expect(export.standardError.contains("could not write the archive '\(archive)': No space left on device"), "\(export.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mounted.url.path) == [], "no partial archive is left")

        // An archive that was there stays as it was.
        try Data("old".utf8).write(to: URL(fileURLWithPath: archive))
        let again = try scratch.run("container", "export", "DEFAULT", "--output", archive, "--home", home.path)
        #expect(again.status == 1, "\(again.standardError)")
        #expect(again.standardError.contains("No space left on device"), "\(again.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mounted.url.path) == ["out.zip"])
        #expect(FileManager.default.contents(atPath: archive) == Data("old".utf8))
    }
}
