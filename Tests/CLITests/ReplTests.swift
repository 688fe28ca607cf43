import Foundation
import TestSupport
import Testing

/// `envscript repl` typed into in a real terminal (tmux): expressions, a function over several lines,
/// Tab completion, Ctrl-C on a runaway loop and on a half-typed line, the history across two sessions,
/// and Ctrl-D.
@Suite(.serialized, .timeLimit(.minutes(15))) struct ReplTests {
    /// A project with a start-up script that defines a global and a module-like table.
    static func project() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", """
            shop = { checkout = function() return "paid" end, cart = { items = 3 } }
            state.stored("session.user", "guest")
            """)
        return scratch
    }

    static func repl(_ scratch: Scratch, _ extra: String...) throws -> TerminalSession {
        try TerminalSession([try EnvScriptProcess.binary().path, "repl"] + extra, in: scratch.url, environment: ["ENVSCRIPT_HOME": ""])
    }

    @Test func expressionsFunctionsAndHostModules() async throws {
        let scratch = try Self.project()
        let repl = try Self.repl(scratch)
        try await repl.waitFor("Start-up script: envscript.lua")
        try repl.typeLine("1 + 1")
        try await repl.waitFor("> 1 + 1\n2\n")
        try repl.typeLine("function double(x)")
        try await repl.waitForScreen("the continuation prompt") { $0.hasSuffix("\n>>") }
        try repl.typeLine("  return x * 2")
        try repl.typeLine("end")
        try repl.typeLine("double(21), 'text'")
        // The terminal shows the tab between two values as spaces.
        try await repl.waitForScreen("both values") { $0.range(of: #"\n42 +"text"\n"#, options: .regularExpression) != nil }
        try repl.typeLine("shop.cart")
        try await repl.waitFor("{ items = 3 }")
        try repl.typeLine("state.get('session.user')")
        try await repl.waitFor("\"guest\"")
        try repl.typeLine("container.active().name")
        try await repl.waitFor("\"DEFAULT\"")
        try repl.typeLine("error('boom')")
        try await repl.waitFor("stdin:1: boom")
        try repl.typeLine("assert.are.same({1}, {2})")
        try await repl.waitFor("Expected objects to be the same.")
        let screen = try repl.screen()
        #expect(screen.contains("> function double(x)\n>>   return x * 2\n>> end\n> double(21)"), "\(screen)")
    }

    @Test func tabCompletesGlobalsFieldsAndMethods() async throws {
        let scratch = try Self.project()
        let repl = try Self.repl(scratch)
        try await repl.waitFor("Tab completes")
        try repl.type("sho")
        try repl.press("Tab")
        try await repl.waitFor("> shop")
        try repl.type(".ca")
        try repl.press("Tab")
        try repl.type(".items")
        try repl.press("Enter")
        try await repl.waitFor("> shop.cart.items\n3")
        // Two candidates share nothing more: Tab lists them.
        try repl.type("shop.c")
        try repl.press("Tab")
        try await repl.waitFor("cart")
        try await repl.waitForScreen("both candidates are listed") { $0.contains("shop.cart") && $0.contains("shop.checkout") }
        try repl.press("C-u")
        try repl.type("string.up")
        try repl.press("Tab")
        try repl.type("('a')")
        try repl.press("Enter")
        try await repl.waitFor("> string.upper('a')\n\"A\"")
        try repl.typeLine("word = 'x'")
        try repl.type("word:up")
        try repl.press("Tab")
        try await repl.waitFor("> word:upper")
        try repl.typeLine("()")
        try await repl.waitFor("> word:upper()\n\"X\"")
    }

    @Test func ctrlCStopsARunawayStatementAndAbandonsALine() async throws {
        let scratch = try Self.project()
        let repl = try Self.repl(scratch)
        try await repl.waitFor("Tab completes")
        // Ctrl-C stops a statement only once it runs (a call into Lua that starts after it forgets
        // it): the REPL, which spends no CPU at the prompt, has spent 200 ms in the loop.
        let atThePrompt = try repl.programCPUTime()
        try repl.typeLine("while true do end")
        try await repl.waitUntilProgramSpends(.milliseconds(200), since: atThePrompt, "the loop runs")
        try repl.press("C-c")
        try await repl.waitFor("interrupted")
        // The REPL is still there, with its state.
        try repl.typeLine("shop.checkout()")
        try await repl.waitFor("\"paid\"")
        // A loop inside pcall cannot swallow it either.
        let beforeThePcall = try repl.programCPUTime()
        try repl.typeLine("pcall(function() while true do end end)")
        try await repl.waitUntilProgramSpends(.milliseconds(200), since: beforeThePcall, "the loop inside pcall runs")
        try repl.press("C-c")
        try await repl.waitForScreen("a second interruption") { $0.components(separatedBy: "interrupted").count == 3 }
        // Ctrl-C on a half-typed line abandons it; a half-typed function too.
        try repl.type("never run")
        try repl.press("C-c")
        try repl.typeLine("function half()")
        try repl.press("C-c")
        try repl.typeLine("'after'")
        try await repl.waitFor("\"after\"")
        let screen = try repl.screen()
        #expect(!screen.contains("syntax error"), "\(screen)")
        #expect(!screen.contains("[exit"), "the REPL must not have ended: \(screen)")
    }

    @Test func ctrlCStopsALongCallOfLuasOwn() async throws {
        let scratch = try Self.project()
        let repl = try Self.repl(scratch)
        try await repl.waitFor("Tab completes")
        let atThePrompt = try repl.programCPUTime()
        try repl.typeLine("table.move({}, 1, math.maxinteger - 1, 2)")
        try await repl.waitUntilProgramSpends(.milliseconds(200), since: atThePrompt, "the call runs")
        try repl.press("C-c")
        try await repl.waitFor("interrupted")
        try repl.typeLine("shop.checkout()")
        try await repl.waitFor("\"paid\"")
    }

    @Test func theHistoryOutlivesASessionAndCtrlDLeaves() async throws {
        let scratch = try Self.project()
        let first = try Self.repl(scratch)
        try await first.waitFor("Tab completes")
        // Each line once the REPL shows it and prompts again: keys typed while the line editor redraws its
        // prompt were echoed twice on a loaded machine ("> 11" for "1").
        try first.typeLine("remembered = 'first session'")
        try await first.waitFor("> remembered = 'first session'\n>")
        try first.typeLine("function two_lines()")
        try await first.waitFor("> function two_lines()\n>>")
        try first.typeLine("end")
        try await first.waitFor(">> end\n>")
        try first.typeLine("1")
        try await first.waitFor("> 1\n1")
        try first.press("C-d")
        try await first.waitFor("[exit 0]")
        let history = scratch.url.appendingPathComponent(".envscript/home/.envscript-containers/tools/repl_history")
        let saved = try String(contentsOf: history, encoding: .utf8)
        #expect(saved == "remembered = 'first session'\nfunction two_lines()\\nend\n1\n")
        let mode = try FileManager.default.attributesOfItem(atPath: history.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let second = try Self.repl(scratch)
        try await second.waitFor("Tab completes")
        try second.press("Up", "Up", "Up")
        try second.press("Enter")
        try await second.waitForScreen("the first session's line ran again") { $0.contains("> remembered = 'first session'") }
        try second.typeLine("remembered")
        try await second.waitFor("\"first session\"")
        try second.press("C-d")
        try await second.waitFor("[exit 0]")
    }

    @Test func aFailingStartUpScriptEndsWithStatusTwoAndPipedInputRuns() async throws {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", "error('broken start-up')\n")
        let failing = try Self.repl(scratch)
        try await failing.waitFor("[exit 2]")
        #expect(try failing.screen().contains("in start-up script envscript.lua: envscript.lua:1: broken start-up"))
        let piped = try scratch.run(shell: "printf 'x = 6\\nx * 7\\nfunction f()\\nreturn 1\\nend\\nf()\\n' | \"$ENVSCRIPT\" repl --no-init")
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(piped.standardOutput.contains("42\n"), "\(piped.standardOutput)")
        #expect(piped.standardOutput.contains("1\n"))
    }
}
