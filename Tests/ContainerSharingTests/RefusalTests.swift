import ContainerSharing
import Containers
import Foundation
import Testing
import TestSupport

/// Crafted archives: every one is refused with a message naming the entry, and the home is exactly
/// as it was.
@Suite struct RefusalTests {
    /// Imports `archive` and expects a refusal whose message holds `expected`; the home must not change.
    private func expectRefused(
        _ expected: String, limits: ArchiveLimits = .standard, sourceLocation: SourceLocation = #_sourceLocation,
        craft: (inout CraftedArchive, URL) throws -> Void
    ) throws {
        let fixture = try SharingFixture()
        defer { fixture.remove() }
        try fixture.write(["a.txt": "a"])
        _ = try fixture.containers.createNewContainer(name: "Other")
        let url = fixture.folder.url.appendingPathComponent("crafted.zip")
        var archive = CraftedArchive()
        archive.addFolder("data/docs")
        archive.addFile("data/docs/ok.txt", "fine")
        try craft(&archive, url)
        if !FileManager.default.fileExists(atPath: url.path) { try archive.write(to: url) }
        let before = try fixture.everything()
        #expect(sourceLocation: sourceLocation) {
            try fixture.containers.importContainer(from: url, name: "Imported", limits: limits)
        } throws: { error in
            let message = "\(error)"
            let matches = message.contains(expected)
            if !matches { Issue.record("unexpected message: \(message)", sourceLocation: sourceLocation) }
            return matches
        }
        #expect(try fixture.everything() == before, "the home is exactly as it was", sourceLocation: sourceLocation)
        #expect(try fixture.containers.container(named: "Imported") == nil, sourceLocation: sourceLocation)
    }

    @Test func pathTraversal() throws {
        try expectRefused("entry 'data/../../evil.txt' is refused: a '..' component") { archive, _ in
            archive.addFile("data/../../evil.txt", "x")
        }
    }

    /// Found through the journal fuzz target: a path split at the Character "/" misses a slash that a
    /// combining mark follows (they make one Character), where the kernel splits at every `/` byte, so
    /// `data/../\u{301}x` read as two components, neither of them `..`.
    @Test func aParentComponentHiddenByACombiningMark() throws {
        try expectRefused("a '..' component") { archive, _ in
            archive.addFile("data/../\u{301}evil.txt", "x")
        }
        try expectRefused("a symbolic link pointing outside the container") { archive, _ in
            archive.addLink("data/docs/escape", to: "../../../\u{301}etc")
        }
        // An absolute target whose first Character is '/' with a combining mark.
        try expectRefused("a symbolic link pointing outside the container") { archive, _ in
            archive.addLink("data/docs/escape", to: "/\u{301}etc")
        }
    }

    @Test func absolutePath() throws {
        try expectRefused("entry '/etc/evil' is refused: an absolute path") { archive, _ in
            archive.addFile("/etc/evil", "x")
        }
    }

    @Test func aPathOutsideDataAndHidden() throws {
        try expectRefused("entry 'elsewhere/x' is refused: a path outside data/ and hidden/") { archive, _ in
            archive.addFile("elsewhere/x", "x")
        }
    }

    @Test func aSymbolicLinkPointingOutside() throws {
        try expectRefused("entry 'data/docs/escape' is refused: a symbolic link pointing outside the container, into its bookkeeping or through another link ('../../../etc/passwd')") { archive, _ in
            archive.addLink("data/docs/escape", to: "../../../etc/passwd")
        }
        try expectRefused("entry 'data/abs' is refused: a symbolic link pointing outside the container, into its bookkeeping or through another link ('/etc/passwd')") { archive, _ in
            archive.addLink("data/abs", to: "/etc/passwd")
        }
    }

    /// Each link looks inside on its own text, but one goes through the other: `u` climbs back to
    /// `data`, and `x` climbs five levels from `a/b/c/d/u`, past the container.
    @Test func aChainOfLinksThatEscapes() throws {
        try expectRefused("entry 'data/x' is refused: a symbolic link pointing outside the container, into its bookkeeping or through another link") { archive, _ in
            for folder in ["data/a", "data/a/b", "data/a/b/c", "data/a/b/c/d"] { archive.addFolder(folder) }
            archive.addLink("data/a/b/c/d/u", to: "../../../..")
            archive.addLink("data/x", to: "a/b/c/d/u/../../../../../etc/passwd")
        }
    }

    @Test func aLinkIntoTheBookkeeping() throws {
        try expectRefused("entry 'data/state' is refused: a symbolic link pointing outside the container, into its bookkeeping") { archive, _ in
            archive.addLink("data/state", to: ".envscript-containers/state.json")
        }
    }

    @Test func entriesNamedLikeTheBookkeeping() throws {
        try expectRefused("entry 'data/.envscript-containers' is refused: '.envscript-containers' is the name of envscript's own bookkeeping folder") { archive, _ in
            archive.addFolder("data/.envscript-containers")
        }
        try expectRefused("entry 'data/.envscript-containers.removed/application.json' is refused") { archive, _ in
            archive.addFile("data/.envscript-containers.removed/application.json", "{}")
        }
    }

    @Test func anEntryUnderALink() throws {
        try expectRefused("entry 'data/l/x' is refused: its folder 'data/l' is not a folder listed before it") { archive, _ in
            archive.addLink("data/l", to: "docs")
            archive.addFile("data/l/x", "through the link")
        }
    }

    @Test func hardLinksToNothingOrToALaterFile() throws {
        try expectRefused("entry 'data/early' is refused: it is a hard link to 'data/late', which is not a file listed before it") { archive, _ in
            archive.entries.append(.init(path: "data/early", type: "file", mode: 0o644, size: 4, hardLinkOf: "data/late"))
            archive.addFile("data/late", "late")
        }
        try expectRefused("entry 'data/twin' is refused: a hard link whose size differs from its file's") { archive, _ in
            archive.entries.append(.init(path: "data/twin", type: "file", mode: 0o644, size: 999, hardLinkOf: "data/docs/ok.txt"))
        }
    }

    @Test func aDeviceOrFIFOEntry() throws {
        try expectRefused("entry 'data/docs/tty' is refused: its type is 'characterDevice'") { archive, _ in
            archive.entries.append(.init(path: "data/docs/tty", type: "characterDevice", mode: 0o666))
        }
        try expectRefused("entry 'data/fifo' is refused: its type is 'fifo'") { archive, _ in
            archive.entries.append(.init(path: "data/fifo", type: "fifo", mode: 0o600))
        }
    }

    @Test func duplicateEntries() throws {
        try expectRefused("entry 'data/docs/ok.txt' is refused: it appears twice in the archive") { archive, _ in
            archive.zipEntries.append(("data/docs/ok.txt", .file(Data("again".utf8))))
        }
        try expectRefused("entry 'data/docs/ok.txt' is refused: it appears twice in the manifest") { archive, _ in
            archive.entries.append(archive.entries[1])
        }
    }

    @Test func aWrongChecksum() throws {
        try expectRefused("entry 'data/docs/ok.txt' is refused: its SHA-256 does not match the manifest") { archive, _ in
            archive.entries[1].sha256 = String(repeating: "0", count: 64)
        }
    }

    @Test func anEntryTheManifestDoesNotList() throws {
        try expectRefused("entry 'data/stowaway' is refused: it is not listed in the manifest") { archive, _ in
            archive.zipEntries.append(("data/stowaway", .file(Data("x".utf8))))
        }
    }

    @Test func aTruncatedArchive() throws {
        try expectRefused("is not a readable container archive: not a zip archive, or a truncated or damaged one") { archive, url in
            try archive.write(to: url)
            let data = try Data(contentsOf: url)
            try data.prefix(data.count / 2).write(to: url)
        }
    }

    @Test func pastTheLimits() throws {
        try expectRefused("more than 3 bytes (--max-size)", limits: ArchiveLimits(maxSize: 3, maxFiles: 100)) { _, _ in }
        try expectRefused("more than 1 entries (--max-files)", limits: ArchiveLimits(maxSize: 1 << 20, maxFiles: 1)) { _, _ in }
    }

    /// A zip bomb whose headers lie about its size: the manifest and the zip say 100 bytes, the entry
    /// inflates to 64 MiB of zeros. Unpacking stops at byte 101.
    @Test func aBombThatLiesAboutItsSizeStopsAtTheSizeItGave() throws {
        try expectRefused("entry 'data/bomb' is refused: it inflates past the 100 bytes its manifest gives") { archive, url in
            let zeros = Data(count: 64 << 20)
            archive.zipEntries.append(("data/bomb", .file(zeros)))
            archive.entries.append(.init(path: "data/bomb", type: "file", mode: 0o644, size: 100, sha256: CraftedArchive.digest(zeros.prefix(100))))
            try archive.write(to: url)
            var bytes = try Data(contentsOf: url)
            // The uncompressed size in the local header (offset 22) and the central directory (offset 24).
            let name = Data("data/bomb".utf8)
            var search = bytes.startIndex
            while let found = bytes.range(of: name, in: search..<bytes.endIndex) {
                let start = found.lowerBound
                if bytes[start - 30..<start - 26] == Data([0x50, 0x4b, 0x03, 0x04]) {
                    bytes.replaceSubrange(start - 30 + 22..<start - 30 + 26, with: [100, 0, 0, 0])
                } else if start >= 46, bytes[start - 46..<start - 42] == Data([0x50, 0x4b, 0x01, 0x02]) {
                    bytes.replaceSubrange(start - 46 + 24..<start - 46 + 28, with: [100, 0, 0, 0])
                }
                search = found.upperBound
            }
            try bytes.write(to: url)
        }
    }

    @Test func aManifestOfAnotherVersion() throws {
        try expectRefused("it is version 9; this version of envscript reads versions 1 to 2") { archive, _ in
            archive.manifestText = #"{"format":"envscript-container","version":9,"container":{"name":"x","createdAt":"","activatedCount":0},"exportedAt":"","entries":[]}"#
        }
    }
}
