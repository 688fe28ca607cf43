import Foundation
import TestSupport
import Testing

/// A switch whose last steps fail (issue #32, point 13): before its commit point (the rename of the new
/// `state.json`) it is undone and reported failed, with nothing changed; past it, it is made and
/// reported made, with a warning, and the next command only tidies up. (A failure past the commit point
/// used to be reported as a failed switch, which the next command then carried out.) strace makes the
/// renames and the removal of the journal fail with EIO, as a failing disk would.
@Suite(.timeLimit(.minutes(15))) struct FailedCommitTests {
    /// The renames of a switch, in order, on its thread: the journal put in place, the new `state.json`
    /// (the commit point), then the containers' records.
    private func renames(of home: TwoContainerHome) throws -> [String] {
        let trace = home.scratch.url.appendingPathComponent("trace.txt").path
        let probe = try TwoContainerHome(Scratch())
        let traced = try EnvScriptProcess.runUnderStrace(
            ["-o", trace, "-e", "trace=rename"], ["container", "activate", "A", "--home", probe.path, "--no-init"], in: home.scratch.url)
        #expect(traced.status == 0, "\(traced.standardError)")
        return try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("rename(") }.map(String.init)
    }

    /// Switches `home` to A with `fault` injected.
    private func activateA(_ home: TwoContainerHome, injecting fault: String) throws -> EnvScriptProcess.Outcome {
        try EnvScriptProcess.runUnderStrace(["-e", "inject=\(fault)"], ["container", "activate", "A", "--home", home.path, "--no-init"], in: home.scratch.url)
    }

    @Test func aFailureAtTheCommitPointUndoesTheSwitch() throws {
        let home = try TwoContainerHome(try Scratch())
        let renames = try renames(of: home)
        let commit = try #require(renames.firstIndex { $0.contains("/state.json\")") }, "\(renames)") + 1
        #expect(commit == 2, "the journal, then the commit point: \(renames)")

        let failed = try activateA(home, injecting: "rename:error=EIO:when=\(commit)")
        #expect(failed.status == 1, "\(failed.standardError)")
        #expect(failed.standardError.contains("Input/output error"), "\(failed.standardError)")
        #expect(!failed.standardOutput.contains("activated"))
        #expect(home.journals.isEmpty, "\(home.journals)")
        #expect(home.live == "B")
        #expect(try home.activeName() == "B", "the next command leaves the home on B")
        #expect(home.live == "B")
    }

    @Test(arguments: ["rename:error=EIO:when=3", "unlink:error=EIO:when=1"])
    func aFailureAfterTheCommitPointIsAMadeSwitchWithAWarning(fault: String) throws {
        let home = try TwoContainerHome(try Scratch())
        #expect(try renames(of: home).count == 3, "the journal, state.json, then A's record")

        let made = try activateA(home, injecting: fault)
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput.contains("activated A"), "\(made.standardOutput)")
        #expect(made.standardError.contains("warning: the change is made, but tidying up after it failed"), "\(made.standardError)")
        #expect(made.standardError.contains("Input/output error"), "\(made.standardError)")
        #expect(home.live == "A")
        #expect(home.journals == ["journal.json"], "the tidying left its journal")

        let info = try home.run("container", "info", "--json")
        #expect(info.status == 0, "\(info.standardError)")
        #expect(home.journals.isEmpty, "the next command finished it")
        #expect(home.live == "A")
        #expect(try home.activeName() == "A")
        let record = try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any]
        #expect(record?["activated_count"] as? Int == 2, "A's staged record was put in place: \(String(describing: record))")
    }
}
