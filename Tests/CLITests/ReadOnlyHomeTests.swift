import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A home this process cannot write — on a read-only file system, or without write permission for its
/// user — can still be read by every command that only reads; a command that changes it is refused
/// (status 1) with the file and the reason in words, as a home that cannot be created is.
@Suite(.timeLimit(.minutes(15))) struct ReadOnlyHomeTests {
    /// The commands that only read a home, with the container `Other` in it.
    static func readingCommands(home: String, archive: String) -> [[String]] {
        [
            ["container", "list", "--home", home],
            ["container", "info", "--home", home],
            ["container", "info", "Other", "--home", home],
            ["tweak", "get", "checkout", "limit", "--home", home],
            ["container", "diff", "DEFAULT", "Other", "--home", home],
            ["container", "export", "DEFAULT", "--output", archive, "--home", home],
        ]
    }

    /// Fills `home` with a container, a flag override and a file, as its owner would have.
    static func fill(_ home: String, in scratch: Scratch) throws {
        #expect(try scratch.run("container", "create", "Other", "--home", home).status == 0)
        let set = try scratch.run("tweak", "set", "checkout", "limit", "5", "--home", home)
        #expect(set.status == 0, "\(set.standardError)")
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: home + "/notes.txt"))
    }

    @Test func readsWorkOnAReadOnlyFileSystemAndChangesAreRefusedInWords() throws {
        let scratch = try Scratch()
        let mounted = try MountedFileSystem.tmpfs(kibibytes: 4096)
        defer { mounted.unmount() }
        let home = mounted.url.appendingPathComponent("home").path
        let fresh = mounted.url.appendingPathComponent("fresh").path
        try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: true)
        try Self.fill(home, in: scratch)
        try mounted.remountReadOnly()

        for (index, arguments) in Self.readingCommands(home: home, archive: scratch.url.path + "/out.zip").enumerated() {
            let outcome = try scratch.run(arguments)
            #expect(outcome.status == 0, "\(index) \(arguments): \(outcome.standardError)")
        }
        let limit = try scratch.run("tweak", "get", "checkout", "limit", "--home", home)
        #expect(limit.standardOutput.contains("5"), "\(limit.standardOutput)")
        // A home never switched has no bookkeeping, not even a lock file: it is read without one.
        let list = try scratch.run("container", "list", "--home", fresh)
        #expect(list.status == 0 && list.standardOutput.contains("DEFAULT"), "\(list.standardError)")

        let create = try scratch.run("container", "create", "New", "--home", home)
        #expect(create.status == 1, "\(create.standardError)")
        #expect(create.standardError.contains("'\(home)/.envscript-containers/lock': the file system is read-only"), "\(create.standardError)")
        let createFresh = try scratch.run("container", "create", "New", "--home", fresh)
        #expect(createFresh.status == 1, "\(createFresh.standardError)")
        #expect(createFresh.standardError.contains("'\(fresh)/.envscript-containers': the file system is read-only"), "\(createFresh.standardError)")
    }

    @Test func readsWorkWithoutWritePermissionAndChangesAreRefusedInWords() throws {
        let scratch = try Scratch()
        let user = try LocalUser()
        let home = scratch.url.appendingPathComponent("home").path
        try Self.fill(home, in: scratch)
        // The user's own home, made read-only for everyone (root ignores permissions, so the commands
        // run as that user); the archives go to a folder of the user's.
        let archives = scratch.url.appendingPathComponent("archives").path
        try FileManager.default.createDirectory(atPath: archives, withIntermediateDirectories: true)
        #expect(chmod(scratch.url.path, 0o755) == 0)
        for path in [home, archives] {
            let chown = try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/chown"), ["-R", user.name, path], in: scratch.url, environment: [:])
            #expect(chown.status == 0, "\(chown.standardError)")
        }
        let chmod = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/chmod"), ["-R", "a-w", home], in: scratch.url, environment: [:])
        #expect(chmod.status == 0, "\(chmod.standardError)")
        let binary = try EnvScriptProcess.binary().path

        for arguments in Self.readingCommands(home: home, archive: archives + "/out.zip") {
            let outcome = try user.run(binary, arguments, in: scratch.url)
            #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
        }
        let create = try user.run(binary, ["container", "create", "New", "--home", home], in: scratch.url)
        #expect(create.status == 1, "\(create.standardError)")
        #expect(create.standardError.contains("'\(home)/.envscript-containers/lock': permission denied"), "\(create.standardError)")

        // A home that cannot be created says it the same way, with the same status.
        let inside = home + "/sub/home"
        let make = try user.run(binary, ["container", "create", "New", "--home", inside], in: scratch.url)
        #expect(make.status == 1, "\(make.standardError)")
        #expect(make.standardError.contains("cannot create the home folder '\(inside)': permission denied"), "\(make.standardError)")
    }
}
