package import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A second local user, made by a test for what another user of the machine could do to ours (tests run
/// as root, as CI does): added with `useradd` under a fresh name, removed with `userdel` when the value
/// goes. Its programs run with `runuser`, as real processes of that user.
package final class LocalUser: @unchecked Sendable {
    /// The user's name.
    package let name: String
    /// The user's id.
    package let uid: UInt32

    /// Adds the user (no home folder, no login shell).
    ///
    /// - Throws: ``Failure`` when `useradd` fails (not root, no `useradd`), saying what it printed.
    package init() throws {
        name = "es-" + UUID().uuidString.prefix(8).lowercased()
        // useradd refuses while another one holds /etc/passwd's lock (tests run in parallel): try again.
        var outcome = try Self.system("/usr/sbin/useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", name])
        for _ in 0..<50 where outcome.status != 0 {
            usleep(100_000)
            outcome = try Self.system("/usr/sbin/useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", name])
        }
        guard outcome.status == 0, let entry = getpwnam(name) else {
            throw Failure(description: "useradd \(name) failed (tests that need a second user run as root): \(outcome.standardError)")
        }
        uid = UInt32(entry.pointee.pw_uid)
    }

    deinit {
        for _ in 0..<50 {
            guard let outcome = try? Self.system("/usr/sbin/userdel", [name]), outcome.status != 0, getpwnam(name) != nil else { return }
            usleep(100_000)
        }
    }

    /// Runs `executable` with `arguments` as this user, to its end, in `directory`.
    package func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> ChildProcess.Outcome {
        try Self.system("/usr/sbin/runuser", ["-u", name, "--", executable] + arguments, in: directory)
    }

    /// What errno name connecting to the Unix domain socket at `path` as this user ends with
    /// (`"EACCES"`), or `"connected"`.
    package func connect(toSocket path: String) throws -> String {
        let script = """
            import errno, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(sys.argv[1])
                print("connected")
            except OSError as e:
                print(errno.errorcode.get(e.errno, str(e.errno)))
            """
        let outcome = try run("/usr/bin/python3", ["-c", script, path], in: URL(fileURLWithPath: "/"))
        return outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) + outcome.standardError
    }

    private static func system(
        _ executable: String, _ arguments: [String], in directory: URL = URL(fileURLWithPath: "/")
    ) throws -> ChildProcess.Outcome {
        try ChildProcess.run(
            URL(fileURLWithPath: executable), arguments, in: directory,
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], timeout: 60)
    }

    /// The user could not be made.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }
}
