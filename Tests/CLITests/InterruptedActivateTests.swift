import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (a real SIGINT to a real `envscript container activate`) at each stage of a switch (issue #32,
/// point 22): the command says what became of the switch, exits 130, and the next command never
/// finishes a switch the user was told was undone.
@Suite struct InterruptedActivateTests {
    /// The files each container holds, at the same paths with different contents.
    private static let paths = (1...6).map { "file\($0)" }

    /// A home with containers A and B, each holding its own version of ``paths``; B is active.
    private func homeOnB(_ scratch: Scratch) throws -> String {
        let home = scratch.url.appendingPathComponent("home").path
        for name in ["A", "B"] {
            #expect(try scratch.run("container", "create", name, "--home", home, "--no-init").status == 0)
            #expect(try scratch.run("container", "activate", name, "--home", home, "--no-init").status == 0)
            for path in Self.paths { try "\(name) \(path)".write(toFile: home + "/" + path, atomically: true, encoding: .utf8) }
        }
        return home
    }

    /// The container whose files are in the live home: "A", "B", or a description of a mixture.
    private func liveContainer(_ home: String) -> String {
        let owners = Set(Self.paths.map { path in
            ((try? String(contentsOfFile: home + "/" + path, encoding: .utf8)) ?? "nothing").split(separator: " ")[0]
        })
        return owners.count == 1 ? String(owners.first!) : "a mixture of \(owners.sorted())"
    }

    /// The name of the active container, as `container info` reports it.
    private func activeName(_ scratch: Scratch, _ home: String) throws -> String? {
        let info = try scratch.run("container", "info", "--json", "--home", home, "--no-init")
        let record = try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any]
        return record?["name"] as? String
    }

    /// Checks that the home is on B with B's files and no journal, that the next command leaves it there,
    /// and that A's files were all kept (a switch to A brings them).
    private func expectStillOnB(_ scratch: Scratch, _ home: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bookkeeping = home + "/.envscript-containers/"
        for journal in ["journal.json", "journal.undo.json"] {
            #expect(!FileManager.default.fileExists(atPath: bookkeeping + journal), "\(journal) is left", sourceLocation: sourceLocation)
        }
        #expect(liveContainer(home) == "B", sourceLocation: sourceLocation)
        #expect(try activeName(scratch, home) == "B", "the next command finds the home on B", sourceLocation: sourceLocation)
        #expect(liveContainer(home) == "B", "and leaves it there", sourceLocation: sourceLocation)
        #expect(try scratch.run("container", "activate", "A", "--home", home, "--no-init").status == 0, sourceLocation: sourceLocation)
        #expect(liveContainer(home) == "A", "A kept every file", sourceLocation: sourceLocation)
    }

    @Test(.disabled("passes alone, fails in a whole run: the signal strace directs at the moving thread is handled only after the switch is made there (a signal disposition or mask the test process passes on; activate's handler is a dispatch source, not run's sigaction handler) — to fix with #32's follow-up"))
    func ctrlCBetweenTheMovesUndoesThemAndSaysSo() async throws {
        let scratch = try Scratch()
        let home = try homeOnB(scratch)
        // The switch's moves are its only renameat2 calls (6 entries out, 6 in); strace sends SIGINT as
        // the third begins: after the journal was written and two entries moved, before the switch is
        // made. A signal tied to a system call, not to a moment, holds on a loaded machine.
        // The signal goes to the moving thread itself: started as from a shell, where it is unblocked.
        let binary = try EnvScriptProcess.binary().path
        let tracer = try withSignalsUnblocked {
            try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/strace"),
                ["-f", "-qq", "-o", "/dev/null", "-e", "trace=renameat2", "-e", "inject=renameat2:signal=SIGINT:when=3",
                 binary, "container", "activate", "A", "--home", home, "--no-init"],
                in: scratch.url, environment: EnvScriptProcess.environment([:]))
        }
        let outcome = tracer.wait(seconds: 240)

        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("interrupted: the switch to A was cancelled and undone, nothing on disk changed; the home is still on B"), "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("activated"))
        try expectStillOnB(scratch, home)
    }

    /// Starts `activate A` with a start-up script whose `hook` (`on_will_change` or `on_did_change`)
    /// loops, sends SIGINT once the hook runs, and returns how the command ended.
    private func interruptActivate(whileLooping hook: String, _ scratch: Scratch, _ home: String) async throws -> ChildProcess.Outcome {
        let script = try scratch.write("slow/envscript.lua", """
            container.\(hook)(function(to, from)
              print("\(hook) running")
              while true do end
            end)
            """)
        let switcher = try EnvScriptProcess.start(
            ["container", "activate", "A", "--home", home, "--no-init", "--init", script, "--instruction-limit", "0", "--hook-timeout", "600"],
            in: scratch.url)
        try await waitUntil("\(hook) runs", timeout: .seconds(120)) {
            switcher.standardOutput.contains("\(hook) running")
        }
        switcher.send(SIGINT)
        return switcher.wait(seconds: 120)
    }

    @Test func ctrlCDuringAWillChangeHookCancelsTheSwitch() async throws {
        let scratch = try Scratch()
        let home = try homeOnB(scratch)
        let outcome = try await interruptActivate(whileLooping: "on_will_change", scratch, home)

        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("interrupted: the switch to A was cancelled and undone, nothing on disk changed; the home is still on B"), "\(outcome.standardError)")
        try expectStillOnB(scratch, home)
    }

    @Test func ctrlCDuringADidChangeHookFinishesTheSwitchAndSaysSo() async throws {
        let scratch = try Scratch()
        let home = try homeOnB(scratch)
        let outcome = try await interruptActivate(whileLooping: "on_did_change", scratch, home)

        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("activated A"))
        #expect(outcome.standardError.contains("interrupted: the switch to A was already made when the interrupt came, so it was finished; the home is on A"), "\(outcome.standardError)")
        #expect(liveContainer(home) == "A")
        #expect(try activeName(scratch, home) == "A")
    }
}
