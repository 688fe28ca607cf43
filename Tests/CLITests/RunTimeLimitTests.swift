import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `run --timeout` stops the whole run, naming the test that was running and writing the report;
/// `--test-timeout` fails one test and goes on; a pathological pattern inside a test or a hook is
/// stopped by the budget instead of hanging the run or holding the home.
@Suite(.timeLimit(.minutes(15))) struct RunTimeLimitTests {
    static let scenarios = """
        describe('limits', function()
          it('first passes', function() end)
          it('spins', function() while true do end end)
          it('third passes', function() end)
        end)
        """

    @Test func theRunTimeoutStopsTheRunNamesTheTestAndWritesTheReport() throws {
        let scratch = try Scratch()
        try scratch.write("spin.lua", Self.scenarios)
        let pretty = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--timeout", "1", "spin.lua")
        #expect(pretty.status == 1, "\(pretty.standardError)")
        let lines = pretty.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("PASS limits first passes") })
        // A time limit is an error, not an assertion's failure (busted's "error").
        #expect(lines.contains { $0.hasPrefix("ERROR limits spins") })
        #expect(lines.contains { $0.contains("spin.lua:3: time limit exceeded: the run took longer than 1 s (--timeout)") })
        #expect(!pretty.standardOutput.contains("third passes"))
        #expect(lines.last == "1 passed, 0 failed, 1 errored, 1 not run (stopped by --timeout: the run took longer than 1 s)")

        let tap = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--timeout", "1", "--format", "tap", "--output", "report.tap", "spin.lua")
        #expect(tap.status == 1)
        let report = try String(contentsOf: scratch.url.appendingPathComponent("report.tap"), encoding: .utf8)
        #expect(report.contains("ok 1 - limits first passes\nnot ok 2 - limits spins\n"))
        #expect(report.contains("Bail out! stopped by --timeout"))

        let junit = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--timeout", "1", "--format", "junit", "--output", "report.xml", "spin.lua")
        #expect(junit.status == 1)
        let xml = try String(contentsOf: scratch.url.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(xml.contains("<testsuites tests=\"3\" failures=\"0\" errors=\"2\""))
        #expect(xml.contains("<testsuite name=\"(run)\""))
        #expect(xml.contains("<error message=\"stopped by --timeout: the run took longer than 1 s; 1 test not run\">"))
        #expect((try? XMLDocument(data: Data(xml.utf8))) != nil, "well-formed XML")
    }

    /// A limit under a millisecond was cut to none at all.
    @Test func aTimeoutUnderAMillisecondStillLimits() throws {
        let scratch = try Scratch()
        try scratch.write("spin.lua", Self.scenarios)
        let outcome = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--test-timeout", "0.0005", "spin.lua")
        #expect(outcome.status == 1)
        // On a loaded machine the file's top level may already take longer than half a millisecond: the
        // limit then stops it there, and says so on stderr.
        let said = outcome.standardOutput + outcome.standardError
        #expect(said.contains("took longer than 0.0005 s (--test-timeout)"), "\(said)")
    }

    /// Each stage the per-stage limit stops is named in its message: a file's top level, a block's
    /// body, a hook, a test.
    @Test(arguments: [
        ("while true do end", "the file's top level"),
        ("describe('d', function() while true do end end)", "the block's body"),
        ("describe('d', function() before_each(function() while true do end end) it('t', function() end) end)", "a hook"),
        ("describe('d', function() it('t', function() while true do end end) end)", "the test"),
    ])
    func theLimitNamesTheStageItStopped(_ source: String, _ stage: String) throws {
        let scratch = try Scratch()
        try scratch.write("stage_spec.lua", source + "\n")
        let outcome = try scratch.run("run", "--no-init", "--test-timeout", "0.2", "stage_spec.lua")
        #expect(outcome.status == 1)
        let said = outcome.standardOutput + outcome.standardError
        #expect(said.contains("time limit exceeded: \(stage) took longer than 0.2 s (--test-timeout)"), "\(said)")
    }

    @Test func theTestTimeoutFailsOneTestAndTheOthersRun() throws {
        let scratch = try Scratch()
        try scratch.write("spin.lua", Self.scenarios)
        let outcome = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--test-timeout", "0.3", "spin.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("time limit exceeded: the test took longer than 0.3 s (--test-timeout)"))
        #expect(outcome.standardOutput.contains("PASS limits third passes"))
        #expect(outcome.standardOutput.hasSuffix("2 passed, 0 failed, 1 errored\n"))
    }

    /// A test that polls a flag spends little of the instruction budget per second (each poll is a
    /// call into Swift): with the default limits alone it ran 23 s. The default per-test limit stops it
    /// at 10 s, says which limit it was and how to lift it, and the next test runs.
    @Test func theDefaultTestTimeoutStopsATestThatPollsAFlag() throws {
        let scratch = try Scratch()
        try scratch.write("poll_spec.lua", """
            describe('flags', function()
              it('waits for green', function()
                while tweak.value('light', 'colour', 'red') ~= 'green' do end
              end)
              it('runs after it', function() end)
            end)
            """)
        let started = ContinuousClock.now
        let outcome = try scratch.run("run", "--no-init", "poll_spec.lua")
        let elapsed = ContinuousClock.now - started
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains(
            "poll_spec.lua:3: time limit exceeded: the test took longer than 30 s (--test-timeout's default; raise it with --test-timeout SECONDS, or envscript = { ['test-timeout'] = SECONDS } in .busted (0: no limit))"),
            "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("PASS flags runs after it"))
        #expect(elapsed >= .seconds(30))
    }

    /// `--test-timeout 0` turns the per-test limit off: a test spinning past the default's 10 s is then
    /// stopped by the next limit, here the run's.
    @Test func aTestTimeoutOfZeroTurnsThePerTestLimitOff() throws {
        let scratch = try Scratch()
        try scratch.write("spin.lua", Self.scenarios)
        let outcome = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--test-timeout", "0", "--timeout", "11", "spin.lua")
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("spin.lua:3: time limit exceeded: the run took longer than 11 s (--timeout)"), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("--test-timeout"))
    }

    /// The per-test limit stops one long call of Lua's own C code (the count hook cannot reach it) and
    /// says so in the console and in each report file.
    @Test(arguments: [ReportFormatCase.tap, .junit])
    func theTestTimeoutStopsALongCallAndTheReportSaysSo(_ format: ReportFormatCase) throws {
        let scratch = try Scratch()
        try scratch.write("long.lua", """
            describe('long', function()
              it('moves for ever', function() table.move({}, 1, math.maxinteger - 1, 2) end)
              it('runs after it', function() end)
            end)
            """)
        let message = "long.lua:2: time limit exceeded: the test took longer than 1 s (--test-timeout)"
        let console = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--test-timeout", "1", "long.lua")
        #expect(console.status == 1, "\(console.standardError)")
        #expect(console.standardOutput.contains(message), "\(console.standardOutput)")
        #expect(console.standardOutput.contains("PASS long runs after it"))
        let file = try scratch.run(
            "run", "--no-init", "--instruction-limit", "0", "--test-timeout", "1", "--format", format.rawValue, "--output", "report", "long.lua")
        #expect(file.status == 1, "\(file.standardError)")
        let report = try String(contentsOf: scratch.url.appendingPathComponent("report"), encoding: .utf8)
        #expect(report.contains(message), "\(report)")
    }

    enum ReportFormatCase: String, CaseIterable, Sendable { case tap, junit }

    @Test func aTimeoutStopsAPlainScriptAndAStartupScript() throws {
        let scratch = try Scratch()
        try scratch.write("plain.lua", "while true do end\n")
        let plain = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--timeout", "0.3", "plain.lua")
        #expect(plain.status == 1, "\(plain.standardError)")
        #expect(plain.standardError.contains("plain.lua:1: time limit exceeded: the run took longer than 0.3 s (--timeout)"))
        try scratch.write("envscript.lua", "while true do end\n")
        try scratch.write("ok.lua", "print('never')\n")
        let startup = try scratch.run("run", "--instruction-limit", "0", "--timeout", "0.3", "ok.lua")
        #expect(startup.status == 1, "a run stopped by --timeout is a failure, even in a start-up script")
        #expect(startup.standardError.contains("time limit exceeded"))
        #expect(!startup.standardOutput.contains("never"))
    }

    @Test func badTimeoutsAreUsageErrors() throws {
        let scratch = try Scratch()
        try scratch.write("ok.lua", "")
        for arguments in [["--timeout", "0"], ["--test-timeout", "-1"], ["--hook-timeout", "nope"]] {
            let outcome = try scratch.run(["run", "--no-init"] + arguments + ["ok.lua"])
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.standardError.contains(arguments[0]))
        }
    }

    @Test func aPathologicalPatternInATestFailsThatTestOnly() throws {
        let scratch = try Scratch()
        try scratch.write("pattern.lua", """
            describe('patterns', function()
              it('backtracks forever', function()
                string.find(string.rep('a', 1e6), '.-.-.-.-.-.-.-b')
              end)
              it('still runs', function() end)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "--test-timeout", "1", "pattern.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("pattern.lua:3: time limit exceeded: the test took longer than 1 s (--test-timeout)"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("PASS patterns still runs"))
    }

    @Test func aPathologicalPatternInAWillChangeHookDoesNotHoldTheHome() throws {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", """
            container.on_will_change(function() string.find(string.rep('a', 1e6), '.-.-.-.-.-.-.-b') end)
            """)
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try scratch.run("container", "create", "B", "--home", home).status == 0)
        let activate = try scratch.run("container", "activate", "B", "--home", home)
        #expect(activate.status == 1, "\(activate.standardError)")
        #expect(activate.standardError.contains("instruction limit exceeded"))
        // The home is free at once: another command on it does not wait.
        let list = try scratch.run("container", "list", "--home", home, "--no-init")
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("DEFAULT"))
    }

    @Test func aTimeoutWhileLoadingReportsTheFileAndRunsNoTest() throws {
        let scratch = try Scratch()
        try scratch.write("a.lua", "describe('a', function() it('quick', function() end) end)\n")
        try scratch.write("b.lua", "while true do end\n")
        try scratch.write("c.lua", "describe('c', function() it('later', function() end) end)\n")
        let outcome = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--timeout", "0.5", "a.lua", "b.lua", "c.lua")
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("ERROR b.lua:1"))
        #expect(outcome.standardOutput.contains("time limit exceeded: the run took longer than 0.5 s (--timeout)"))
        #expect(!outcome.standardOutput.contains("PASS"))
        // a.lua's block never ran its body (busted's order: a body runs when the run reaches it), so its
        // test is not known, nor counted as not run.
        #expect(outcome.standardOutput.hasSuffix("0 passed, 0 failed, 1 errored (stopped by --timeout: the run took longer than 0.5 s)\n"))
    }

    @Test func aHookTimeoutCancelsTheSwitchAndTheScriptGoesOn() throws {
        let scratch = try Scratch()
        try scratch.write("hook.lua", """
            container.create('B')
            container.on_will_change(function() while true do end end)
            print(pcall(container.activate, 'B'))
            print('active: ' .. container.active().name)
            """)
        let outcome = try scratch.run("run", "--no-init", "--instruction-limit", "0", "--hook-timeout", "0.2", "hook.lua")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("false"))
        #expect(outcome.standardOutput.contains("hook ran longer than"))
        #expect(outcome.standardOutput.hasSuffix("active: DEFAULT\n"))
    }
}
