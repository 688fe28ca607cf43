import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The per-user folder of control sockets in the temporary directory (`$TMPDIR/envscript-<uid>`, used
/// when a home's path leaves no room for the socket's) against another local user who made it first
/// (issue #31, point 5). `TMPDIR` names a folder of the test's that stands for `/tmp`.
@Suite(.timeLimit(.minutes(15))) struct SocketFolderTests {
    /// A home whose sockets do not fit in a Unix socket address (108 bytes), so they go to the per-user folder.
    private func longHome(_ scratch: Scratch) -> String {
        scratch.url.appendingPathComponent(String(repeating: "h", count: 100)).path
    }

    /// A folder every user may add to, sticky like `/tmp`.
    private func sharedTemporary(_ scratch: Scratch) throws -> String {
        let path = scratch.url.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(chmod(path, 0o1777) == 0)
        return path
    }

    private var perUserName: String { "envscript-\(getuid())" }

    /// The socket path the one host attached to `home` published.
    private func publishedSocket(home: String) throws -> String {
        let hosts = home + "/.envscript-containers/hosts"
        let record = try #require(try FileManager.default.contentsOfDirectory(atPath: hosts).first { $0.hasSuffix(".json") })
        let fields = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: hosts + "/" + record)))
        return try #require((fields as? [String: Any])?["socketPath"] as? String)
    }

    /// Starts a host whose per-user folder is already there, and expects it to refuse, saying `reason`.
    private func expectRefusal(_ scratch: Scratch, temporary: String, planted: String, reason: String) throws {
        let host = try HostUnderOpenUmask(scratch, home: longHome(scratch), script: "", environment: ["TMPDIR": temporary])
        let outcome = host.process.wait(seconds: 60)
        #expect(!host.isReady)
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("refusing to use the folder '\(planted)' for control sockets: \(reason)"),
                "\(outcome.standardError)")
        #expect(outcome.standardError.contains("Remove it"))
    }

    @Test func aPerUserFolderAnotherUserMadeFirstIsRefused() throws {
        let scratch = try Scratch()
        let other = try LocalUser()
        let temporary = try sharedTemporary(scratch)
        let planted = temporary + "/" + perUserName
        #expect(try other.run("/bin/mkdir", ["-m", "0777", planted], in: scratch.url).status == 0)
        try expectRefusal(scratch, temporary: temporary, planted: planted,
                          reason: "it belongs to uid \(other.uid), not to you (uid \(getuid()))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: planted).isEmpty, "no socket of ours went there")
    }

    @Test func aLinkInPlaceOfThePerUserFolderIsRefused() throws {
        let scratch = try Scratch()
        let other = try LocalUser()
        let temporary = try sharedTemporary(scratch)
        let theirs = temporary + "/theirs"
        let planted = temporary + "/" + perUserName
        #expect(try other.run("/bin/mkdir", ["-m", "0777", theirs], in: scratch.url).status == 0)
        #expect(try other.run("/bin/ln", ["-s", theirs, planted], in: scratch.url).status == 0)
        try expectRefusal(scratch, temporary: temporary, planted: planted, reason: "it is a symbolic link, not a folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs).isEmpty, "no socket of ours went there")
    }

    @Test func aPerUserFolderOfOursThatOthersMayEnterIsRefused() throws {
        let scratch = try Scratch()
        let temporary = try sharedTemporary(scratch)
        let planted = temporary + "/" + perUserName
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: false)
        #expect(chmod(planted, 0o777) == 0)
        try expectRefusal(scratch, temporary: temporary, planted: planted, reason: "its mode is 777, which lets others write in it; it must be 700")
    }

    @Test func thePerUserFolderIsMadePrivateWhateverTheUmask() throws {
        let scratch = try Scratch()
        let temporary = try sharedTemporary(scratch)
        let home = longHome(scratch)
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let host = try HostUnderOpenUmask(scratch, home: home, script: "", environment: ["TMPDIR": temporary])
        #expect(host.isReady, "\(host.process.standardError)")
        let socket = try publishedSocket(home: home)
        let folder = temporary + "/" + perUserName
        #expect((socket as NSString).deletingLastPathComponent == folder)
        var info = stat()
        #expect(lstat(folder, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR)
        #expect(info.st_uid == getuid())
        #expect(String(info.st_mode & 0o7777, radix: 8) == "700")
        #expect(lstat(socket, &info) == 0)
        #expect(String(info.st_mode & 0o7777, radix: 8) == "600")
        // And the host is reached there: it takes part in a switch.
        let outcome = try scratch.run("container", "activate", "B", "--home", home, "--no-init")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("1 running host took part"))
        host.stop()
    }

    @Test func aClientRefusesAHostSocketInAFolderThatIsNotPrivate() throws {
        let scratch = try Scratch()
        let other = try LocalUser()
        let temporary = try sharedTemporary(scratch)
        let home = longHome(scratch)
        #expect(try scratch.run("container", "create", "B", "--home", home, "--no-init").status == 0)
        let host = try HostUnderOpenUmask(scratch, home: home, script: "", environment: ["TMPDIR": temporary])
        #expect(host.isReady, "\(host.process.standardError)")
        let folder = (try publishedSocket(home: home) as NSString).deletingLastPathComponent
        // The folder as another user could have made it: theirs.
        #expect(chown(folder, other.uid, gid_t(getgid())) == 0)
        let outcome = try scratch.run("container", "activate", "B", "--home", home, "--no-init")
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("refusing to use the folder '\(folder)' for control sockets: it belongs to uid \(other.uid)"),
                "\(outcome.standardError)")
        let info = try scratch.run("container", "info", "--json", "--home", home, "--no-init")
        #expect(info.standardOutput.contains("DEFAULT"), "nothing changed: \(info.standardOutput)")
        #expect(chown(folder, getuid(), getgid()) == 0)
        host.stop()
    }
}
