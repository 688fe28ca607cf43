import Foundation
import TestSupport
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `envscript run` saves the stored state it changed before it reports its end: a save that fails — a
/// full disk, an I/O error on the rename — fails the run (status 1) and the report says why, naming the
/// file, in the console and in a report file alike. (It used to pass, the values lost, one log line
/// saying so.)
@Suite(.timeLimit(.minutes(15))) struct RunStateSaveTests {
    /// A scenario that stores a long note, new on every run (Lua seeds its random numbers afresh).
    static let scenario = """
        state.stored('note', '')
        describe('notes', function()
          it('keeps a long note', function() state.set('note', string.rep('n', 65536) .. math.random()) end)
        end)
        """

    /// A home made by a first run, on the disk of `home`.
    static func makeHome(_ home: String, in scratch: Scratch) throws {
        try scratch.write("empty.lua", "")
        let made = try scratch.run("run", "--no-init", "--home", home, "empty.lua")
        #expect(made.status == 0, "\(made.standardError)")
    }

    @Test func aSaveThatFindsTheDiskFullFailsTheRun() throws {
        let scratch = try Scratch()
        let disk = try MountedFileSystem.tmpfs(kibibytes: 1024)
        defer { disk.unmount() }
        let home = disk.url.appendingPathComponent("home").path
        try Self.makeHome(home, in: scratch)
        try scratch.write("notes_spec.lua", Self.scenario)
        // Room to open the home again, none for a note of 64 KiB.
        try disk.fill(leavingFree: 32 << 10)
        let file = "\(home)/Library/Preferences/envscript.plist"

        let pretty = try scratch.run("run", "--no-init", "--home", home, "notes_spec.lua")
        #expect(pretty.status == 1, "\(pretty.standardError)")
        #expect(pretty.standardOutput.contains("PASS notes keeps a long note"), "\(pretty.standardOutput)")
        #expect(pretty.standardOutput.contains("ERROR (saving the stored state)"), "\(pretty.standardOutput)")
        #expect(pretty.standardOutput.contains("cannot write '\(file)' (write failed: No space left on device)"), "\(pretty.standardOutput)")
        #expect(pretty.standardOutput.hasSuffix("1 passed, 0 failed, 1 errored\n"))

        let junit = try scratch.run("run", "--no-init", "--home", home, "--format", "junit", "--output", "report.xml", "notes_spec.lua")
        #expect(junit.status == 1, "\(junit.standardError)")
        let xml = try String(contentsOf: scratch.url.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"(run)\""), "\(xml)")
        #expect(xml.contains("<testcase name=\"(saving the stored state)\""), "\(xml)")
        #expect(xml.contains("No space left on device"), "\(xml)")
        #expect((try? XMLDocument(data: Data(xml.utf8))) != nil, "well-formed XML")

        // A plain script's run fails the same way, on standard error.
        try scratch.write("note.lua", "state.stored('note', '')\nstate.set('note', string.rep('p', 65536) .. math.random())\n")
        let plain = try scratch.run("run", "--no-init", "--home", home, "note.lua")
        #expect(plain.status == 1, "\(plain.standardError)")
        #expect(plain.standardError.contains("the run's stored state (state.stored) could not be saved"), "\(plain.standardError)")
        #expect(plain.standardError.contains("'\(file)' (write failed: No space left on device)"), "\(plain.standardError)")
    }

    @Test func aSaveWhoseRenameFailsFailsTheRun() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        try Self.makeHome(home, in: scratch)
        try scratch.write("notes_spec.lua", Self.scenario)
        let file = "\(home)/Library/Preferences/envscript.plist"
        let run = ["run", "--no-init", "--home", home, "--format", "tap", "--output", "report.tap", "notes_spec.lua"]
        // Which rename of its thread saves the preferences: a run traced once tells.
        let trace = scratch.url.appendingPathComponent("trace.txt").path
        let traced = try EnvScriptProcess.runUnderStrace(["-o", trace, "-e", "trace=rename"], run, in: scratch.url)
        #expect(traced.status == 0, "\(traced.standardError)")
        let when = try #require(try EnvScriptProcess.straceCallNumber(in: trace, of: "rename", containing: "\"\(file)\")"))

        let failed = try EnvScriptProcess.runUnderStrace(["-e", "trace=rename", "-e", "inject=rename:error=EIO:when=\(when)"], run, in: scratch.url)
        #expect(failed.status == 1, "\(failed.standardError)")
        let report = try String(contentsOf: scratch.url.appendingPathComponent("report.tap"), encoding: .utf8)
        #expect(report.contains("not ok 2 - (saving the stored state)"), "\(report)")
        #expect(report.contains("cannot write '\(file)' (rename failed: Input/output error)"), "\(report)")
    }
}
