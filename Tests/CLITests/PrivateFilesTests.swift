import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a host makes in its home — the bookkeeping, the stores, the control socket — is its user's
/// alone whatever the umask it runs under (issue #31, point 7): under `umask 000` another local user
/// read secure state over the socket and switched containers.
@Suite(.timeLimit(.minutes(15))) struct PrivateFilesTests {
    /// Every entry under `root` (itself included) with group or other permission bits, as "path mode".
    private func entriesOpenToOthers(under root: String) throws -> [String] {
        var found: [String] = []
        var info = stat()
        guard lstat(root, &info) == 0 else { return ["\(root) missing"] }
        if info.st_mode & 0o077 != 0, info.st_mode & S_IFMT != S_IFLNK {
            found.append("\(root) \(String(info.st_mode & 0o7777, radix: 8))")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in try FileManager.default.contentsOfDirectory(atPath: root) {
                found += try entriesOpenToOthers(under: root + "/" + name)
            }
        }
        return found
    }

    /// Every path under `root`, for the record of what the walk covered.
    private func allEntries(under root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
    }

    @Test func aHostUnderAnOpenUmaskMakesNothingOthersCanReach() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        // The host makes the home, and through its script every kind of store and bookkeeping there is:
        // containers, a switch (journal, stash), stored, file and secure state, tweak overrides.
        let host = try HostUnderOpenUmask(scratch, home: home, script: """
            state.stored('stored', 'one')
            state.file('file', 'two')
            state.secure('secret')
            state.set('stored', 'uno')
            state.set('file', 'dos')
            state.set('secret', 'the secret')
            tweak.stack{ tweak.overrides() }
            tweak.set('feature', 'variable', true)
            container.create('B')
            container.activate('B')
            state.set('stored', 'b')
            state.set('file', 'b')
            container.clone('B', 'C')
            container.activate('DEFAULT')
            """)
        #expect(host.isReady, "\(host.process.standardError)")
        let other = try LocalUser()

        let hosts = home + "/.envscript-containers/hosts"
        let record = try #require(try FileManager.default.contentsOfDirectory(atPath: hosts).first { $0.hasSuffix(".json") })
        let fields = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: hosts + "/" + record)))
        // In the hosts folder, or in the per-user folder of the temporary directory when the path is too long.
        let socket = try #require((fields as? [String: Any])?["socketPath"] as? String)
        let made = allEntries(under: home)
        #expect(made.contains { $0.hasSuffix(".plist") }, "the walk covers the preferences: \(made)")
        #expect(made.contains { $0.contains("secret") }, "the walk covers the secure state: \(made)")
        #expect(made.contains { $0.hasSuffix("state.json") }, "the walk covers the bookkeeping: \(made)")
        #expect(try entriesOpenToOthers(under: home) == [])
        let keys = scratch.url.appendingPathComponent("keys").path
        #expect(try entriesOpenToOthers(under: keys) == [])
        // The socket and its folder (which may hold other hosts' sockets too).
        for path in [socket, (socket as NSString).deletingLastPathComponent] {
            var info = stat()
            #expect(lstat(path, &info) == 0)
            #expect(info.st_mode & 0o077 == 0, "\(path) has mode \(String(info.st_mode & 0o7777, radix: 8))")
        }

        // Another user cannot reach the control socket at all.
        #expect(try other.connect(toSocket: socket) == "EACCES")
        host.stop()
    }

    /// The modes of the entries under `root`, by path, as octal text.
    private func modes(under root: String) -> [String: String] {
        var found: [String: String] = [:]
        for path in allEntries(under: root) where !path.hasPrefix(".envscript-containers") {
            var info = stat()
            if lstat(root + "/" + path, &info) == 0 { found[path] = String(info.st_mode & 0o7777, radix: 8) }
        }
        return found
    }

    @Test func theApplicationsOwnFilesKeepTheirModesThroughSwitchesAndCopies() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        let files = [("shared.txt", 0o644), ("group.txt", 0o664), ("open", 0o777), ("open/inner.txt", 0o666), ("private.txt", 0o600)]
        try FileManager.default.createDirectory(atPath: home + "/open", withIntermediateDirectories: true)
        for (path, mode) in files {
            if path != "open" { try Data(path.utf8).write(to: URL(fileURLWithPath: home + "/" + path)) }
            #expect(chmod(home + "/" + path, mode_t(mode)) == 0)
        }
        let before = modes(under: home)
        #expect(before.count == files.count)
        // The engine's own files are private; the application's are copied and moved as they are.
        let outcome = try scratch.run(shell: """
            umask 000
            set -e
            "$ENVSCRIPT" container clone DEFAULT Copy --home '\(home)' --no-init
            "$ENVSCRIPT" container activate Copy --home '\(home)' --no-init
            """)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(modes(under: home) == before, "the copy")
        #expect(try scratch.run(shell: "umask 000; \"$ENVSCRIPT\" container activate DEFAULT --home '\(home)' --no-init").status == 0)
        #expect(modes(under: home) == before, "the original, moved out and back")
    }

    @Test func anExportedArchiveIsPrivateWhateverTheUmask() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        let archive = scratch.url.appendingPathComponent("debug.zip").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: home + "/token.txt"))
        let outcome = try scratch.run(shell: "umask 000; \"$ENVSCRIPT\" container export DEFAULT --output '\(archive)' --home '\(home)' --no-init")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        var info = stat()
        #expect(stat(archive, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "the archive holds the container's data: \(String(info.st_mode & 0o777, radix: 8))")
    }
}
