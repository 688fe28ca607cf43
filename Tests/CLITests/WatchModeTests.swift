import Foundation
import TestSupport
import Testing

/// `envscript run --watch` in a real terminal (tmux): an edited scenario file, and an edited start-up
/// script, each rerun the scenarios on a cleared screen; Ctrl-C ends it with status 0, also in the
/// middle of a pass.
@Suite(.timeLimit(.minutes(15))) struct WatchModeTests {
    @Test func editingAScenarioOrTheStartUpScriptRerunsOnAClearedScreen() async throws {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", "LIMIT = 2\n")
        let scenario = try scratch.write("cart.lua", "it('fits', function() assert.is_true(1 <= LIMIT) end)\n")
        let terminal = try TerminalSession([try EnvScriptProcess.binary().path, "run", "--watch", "cart.lua"], in: scratch.url)
        try await terminal.waitFor("1 passed, 0 failed")
        try await terminal.waitFor("watching 2 files for changes")

        // The file is replaced, as editors save: a new file renamed over the old one.
        try """
            it('fits', function() assert.is_true(1 <= LIMIT) end)
            it('holds three', function() assert.is_true(3 <= LIMIT) end)
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let failed = try await terminal.waitFor("1 passed, 1 failed")
        #expect(!failed.contains("1 passed, 0 failed"), "the screen is cleared before each report: \(failed)")
        #expect(failed.contains("FAIL holds three"))

        // The start-up script changes, in place.
        let handle = try FileHandle(forWritingTo: scratch.url.appendingPathComponent("envscript.lua"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("LIMIT = 5\n".utf8))
        try handle.close()
        let passed = try await terminal.waitFor("2 passed, 0 failed")
        #expect(!passed.contains("FAIL"), "\(passed)")

        // A syntax error is shown and watching goes on.
        try "it('broken', function()\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        try await terminal.waitFor("cart.lua:2: 'end' expected")
        try "it('back', function() end)\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        try await terminal.waitFor("PASS back")

        try terminal.press("C-c")
        try await terminal.waitFor("[exit 0]")
    }

    /// An `envscript.lua` created while watching, in the project's top folder above the scenarios, is
    /// found and loaded by the next pass.
    @Test func aStartUpScriptCreatedWhileWatchingIsLoaded() async throws {
        let scratch = try Scratch()
        try scratch.write("scenarios/cart.lua", "it('knows the limit', function() assert.are.equal(5, LIMIT) end)\n")
        let terminal = try TerminalSession(
            [try EnvScriptProcess.binary().path, "run", "--watch", "scenarios/cart.lua"], in: scratch.url)
        let before = try await terminal.waitFor("0 passed, 1 failed")
        #expect(before.contains("Start-up script: none"), "\(before)")
        try await terminal.waitFor("watching 1 file for changes")

        try scratch.write("envscript.lua", "LIMIT = 5\n")
        let after = try await terminal.waitFor("1 passed, 0 failed")
        #expect(after.contains("Start-up script: ") && after.contains("envscript.lua"), "\(after)")
        try await terminal.waitFor("watching 2 files for changes")

        try terminal.press("C-c")
        try await terminal.waitFor("[exit 0]")
    }

    @Test func ctrlCStopsAPassUnderWay() async throws {
        let scratch = try Scratch()
        try scratch.write("slow.lua", "it('spins', function() while true do end end)\n")
        // At nice 10: it spins until this test, which needs a thread of Swift's pool, sends Ctrl-C.
        let terminal = try TerminalSession(
            ["nice", "-n", "10", try EnvScriptProcess.binary().path, "run", "--watch", "--no-init", "--instruction-limit", "0",
             "--test-timeout", "0", "slow.lua"], in: scratch.url)
        try await terminal.waitFor("Start-up script: none (--no-init)")
        // The pass is under way once the spinning test has spent 200 ms of CPU (after this line the
        // run does little else before the loop); Ctrl-C sent earlier would stop no Lua code.
        let atTheStart = try terminal.programCPUTime()
        try await terminal.waitUntilProgramSpends(.milliseconds(200), since: atTheStart, "the test spins")
        try terminal.press("C-c")
        let screen = try await terminal.waitFor("[exit 0]", timeout: .seconds(30))
        #expect(screen.contains("ERROR spins"), "\(screen)")
        #expect(screen.contains("interrupted"), "\(screen)")
    }
}
