import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (a real SIGINT to a real `envscript container activate`) at each stage of a switch (issue #32,
/// point 22): the command says what became of the switch, exits 130, and the next command never
/// finishes a switch the user was told was undone.
@Suite(.timeLimit(.minutes(15))) struct InterruptedActivateTests {
    /// Checks that the home is on B with B's files and no journal, that the next command leaves it there,
    /// and that A's files were all kept (a switch to A brings them).
    private func expectStillOnB(_ home: TwoContainerHome, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(home.journals.isEmpty, "\(home.journals) left", sourceLocation: sourceLocation)
        #expect(home.live == "B", sourceLocation: sourceLocation)
        #expect(try home.activeName() == "B", "the next command finds the home on B", sourceLocation: sourceLocation)
        #expect(home.live == "B", "and leaves it there", sourceLocation: sourceLocation)
        #expect(try home.run("container", "activate", "A").status == 0, sourceLocation: sourceLocation)
        #expect(home.live == "A", "A kept every file", sourceLocation: sourceLocation)
    }

    @Test
    func ctrlCBetweenTheMovesUndoesThemAndSaysSo() async throws {
        let home = try TwoContainerHome(try Scratch())
        // The switch's moves are its only renameat2 calls (6 entries out, 6 in); strace sends SIGINT as
        // the third begins: after the journal was written and two entries moved, before the switch is
        // made. A signal tied to a system call, not to a moment, holds on a loaded machine.
        // The signal goes to the moving thread itself, which hears it even though this test's thread,
        // and so the child, starts with it blocked: the switch is made on the thread that unblocks it.
        let outcome = try EnvScriptProcess.runUnderStrace(
            ["-e", "trace=renameat2", "-e", "inject=renameat2:signal=SIGINT:when=3"],
            ["container", "activate", "A", "--home", home.path, "--no-init"], in: home.scratch.url)

        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("interrupted: the switch to A was cancelled and undone, nothing on disk changed; the home is still on B"), "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("activated"))
        try expectStillOnB(home)
    }

    /// Starts `activate A` with a start-up script whose `hook` (`on_will_change` or `on_did_change`)
    /// loops, sends SIGINT once the hook runs, and returns how the command ended.
    private func interruptActivate(whileLooping hook: String, _ home: TwoContainerHome) async throws -> ChildProcess.Outcome {
        let script = try home.scratch.write("slow/envscript.lua", """
            container.\(hook)(function(to, from)
              print("\(hook) running")
              while true do end
            end)
            """)
        let switcher = try EnvScriptProcess.start(
            ["container", "activate", "A", "--home", home.path, "--no-init", "--init", script, "--instruction-limit", "0", "--hook-timeout", "600"],
            in: home.scratch.url)
        switcher.yieldsTheProcessor() // its hook spins until the signal comes
        try await waitUntil("\(hook) runs", timeout: .seconds(120)) {
            switcher.standardOutput.contains("\(hook) running")
        }
        switcher.send(SIGINT)
        return switcher.wait(seconds: 120)
    }

    @Test func ctrlCDuringAWillChangeHookCancelsTheSwitch() async throws {
        let home = try TwoContainerHome(try Scratch())
        let outcome = try await interruptActivate(whileLooping: "on_will_change", home)

        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("interrupted: the switch to A was cancelled and undone, nothing on disk changed; the home is still on B"), "\(outcome.standardError)")
        try expectStillOnB(home)
    }

    @Test func ctrlCDuringADidChangeHookFinishesTheSwitchAndSaysSo() async throws {
        let home = try TwoContainerHome(try Scratch())
        let outcome = try await interruptActivate(whileLooping: "on_did_change", home)

        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("activated A"))
        #expect(outcome.standardError.contains("interrupted: the switch to A was already made when the interrupt came, so it was finished; the home is on A"), "\(outcome.standardError)")
        #expect(home.live == "A")
        #expect(try home.activeName() == "A")
    }
}
