package import Foundation
package import Testing

/// A program running in a terminal of its own: a tmux session on a private server, typed into with
/// `send-keys` and read with `capture-pane`, for the tests of what people use interactively (the
/// REPL, watch mode). The session is killed when the value goes away.
package final class TerminalSession {
    private let socket = "envscript-test-\(UUID().uuidString)"
    private let name = "s"

    /// Starts `arguments` (the program first) in `directory` in a terminal of `columns` × `rows`,
    /// with `environment` added to this process's.
    package init(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], columns: Int = 120, rows: Int = 50
    ) throws {
        let command = (environment.map { "\($0.key)=\(Self.quoted($0.value))" } + arguments.map(Self.quoted))
            .joined(separator: " ")
        // The shell stays after the program ends, so its last screen and exit status can be read.
        let shell = "cd \(Self.quoted(directory.path)) && env \(command); echo \"[exit $?]\"; sleep 600"
        try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", shell])
    }

    deinit {
        // The server ends with its last session. `kill-server` alone answers success and yet leaves a
        // server with a session running (tmux 3.3a), and with it the program under test.
        try? tmux(["kill-session", "-t", name])
        try? tmux(["kill-server"])
    }

    /// Types `text` as it is (no key names).
    package func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// Types `text` and Enter.
    package func typeLine(_ text: String) throws {
        try type(text)
        try press("Enter")
    }

    /// Presses keys by tmux's names: `Enter`, `Tab`, `C-c`, `C-d`, `Up`.
    package func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// The process id of the tmux server the session runs in.
    package func serverPID() throws -> pid_t {
        let text = try tmux(["display-message", "-p", "-t", name, "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = pid_t(text) else { throw TerminalSessionError(description: "tmux named no server pid: \(text)") }
        return pid
    }

    /// The process id of the program the terminal runs: the child of the pane's shell.
    package func programPID() throws -> pid_t {
        let text = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let shell = pid_t(text), let program = ProcessInspection.children(of: shell).first else {
            throw TerminalSessionError(description: "no program runs in the pane (its shell: \(text))")
        }
        return program
    }

    /// The CPU time the program has used so far (see ``ProcessInspection/cpuTime(of:)``).
    package func programCPUTime() throws -> Duration {
        let pid = try programPID()
        guard let time = ProcessInspection.cpuTime(of: pid) else {
            throw TerminalSessionError(description: "the program (pid \(pid)) has gone")
        }
        return time
    }

    /// Waits until the program has spent `cpu` more CPU time than `baseline` (an earlier
    /// ``programCPUTime()``): a program waiting for input spends none, so this holds once it runs a
    /// loop, and goes on holding however late it is looked at.
    package func waitUntilProgramSpends(_ cpu: Duration, since baseline: Duration, _ what: String, timeout: Duration = .seconds(120)) async throws {
        let pid = try programPID()
        try await waitUntil(what, timeout: timeout) { (ProcessInspection.cpuTime(of: pid) ?? .zero) - baseline >= cpu }
    }

    /// The screen and its scrollback, lines without their trailing blanks.
    package func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-J", "-S", "-1000", "-t", name])
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// Waits until the screen satisfies `condition`; records an issue showing the screen when it does
    /// not within `timeout`.
    @discardableResult
    package func waitForScreen(
        _ what: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let text = try screen()
            if condition(text) { return text }
            if clock.now > deadline {
                Issue.record("timed out waiting until \(what); the screen:\n\(text)", sourceLocation: sourceLocation)
                return text
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    package func waitFor(_ text: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await waitForScreen("the screen shows \(text)", timeout: timeout, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Runs `tmux -L <private socket> arguments...` and returns what it printed.
    ///
    /// Spawned and waited for with `waitpid`, not with Foundation's `Process`: the tmux server that
    /// `new-session` forks keeps the descriptors the client inherited, and `Process` on Linux learns of
    /// a child's end from one of them closing.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        try closeInheritedDescriptors(in: &actions)
        let argv = ["tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let environment = ProcessInfo.processInfo.environment.merging(["TERM": "xterm-256color"]) { $1 }
            .map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw TerminalSessionError(description: "cannot start tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw TerminalSessionError(description: "tmux \(arguments.first ?? "") failed (wait status \(status)): \(printed)")
        }
        return printed
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// tmux refused a command.
package struct TerminalSessionError: Error, CustomStringConvertible {
    package var description: String
}
