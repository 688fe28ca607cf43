import Foundation
import Testing

/// One long C call of Lua's own (string.rep, table.move and the other table functions that loop in C)
/// stops at the instruction limit, at `--timeout` and at `--hook-timeout` like a loop written in Lua:
/// a script's pcall cannot swallow it, and a will-change hook running one does not hold the home.
@Suite(.timeLimit(.minutes(15))) struct LongCallLimitTests {
    /// Calls that ran for ever in stock Lua's C code, out of reach of the count hook.
    static let longCalls = [
        "table.move({}, 1, math.maxinteger - 1, 2)",
        "table.insert(setmetatable({}, {__len = function() return math.maxinteger - 1 end}), 1, 0)",
        "table.remove(setmetatable({}, {__len = function() return math.maxinteger end}), 1)",
        "table.concat(setmetatable({}, {__index = rawlen, __len = function() return math.maxinteger end}))",
        "table.sort(setmetatable({}, {__index = rawlen, __newindex = rawequal, __len = function() return (1 << 31) - 2 end}))",
    ]

    /// A run whose child is killed (and the test failed) well before a hung call would end.
    static func run(_ arguments: String..., in scratch: Scratch) throws -> EnvScriptProcess.Outcome {
        try EnvScriptProcess.run(arguments, in: scratch.url, timeout: 60)
    }

    static func script(_ call: String) -> String {
        """
        print(pcall(function() \(call) end))
        print('escaped')
        """
    }

    @Test(arguments: longCalls)
    func aLongCallStopsAtTheTimeout(_ call: String) throws {
        let scratch = try Scratch()
        try scratch.write("long.lua", Self.script(call))
        let outcome = try Self.run("run", "--no-init", "--instruction-limit", "0", "--timeout", "0.5", "long.lua", in: scratch)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("long.lua:1: time limit exceeded: the run took longer than 0.5 s (--timeout)"), "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("escaped"))
    }

    @Test(arguments: longCalls)
    func aLongCallStopsAtTheInstructionLimit(_ call: String) throws {
        let scratch = try Scratch()
        try scratch.write("long.lua", Self.script(call))
        let outcome = try Self.run("run", "--no-init", "--instruction-limit", "1000000", "long.lua", in: scratch)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("long.lua:1: instruction limit exceeded: more than 1000000 instructions"), "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("escaped"))
    }

    @Test func anEmptyPieceRepeatedWithoutEndIsEmptyAtOnce() throws {
        let scratch = try Scratch()
        try scratch.write("rep.lua", """
            print(#string.rep("", math.maxinteger), #string.rep("", 2^40, ""), #(""):rep(math.maxinteger))
            print(string.rep("ab", 3, ","), pcall(string.rep, "", math.maxinteger // 2 + 10, "aa"))
            """)
        let outcome = try Self.run("run", "--no-init", "--timeout", "5", "rep.lua", in: scratch)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "0\t0\t0\nab,ab,ab\tfalse\tresulting string too large\n")
    }

    @Test func aLongRepetitionStopsAtTheTimeout() throws {
        let scratch = try Scratch()
        try scratch.write("rep.lua", "local s = string.rep('x', 2^31 - 1)\nprint('escaped')\n")
        let outcome = try Self.run("run", "--no-init", "--instruction-limit", "0", "--memory-limit", "0", "--timeout", "0.2", "rep.lua", in: scratch)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("rep.lua:1: time limit exceeded"), "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("escaped"))
    }

    @Test func aLongCallInAWillChangeHookFailsTheSwitchAtTheHookTimeoutAndFreesTheHome() throws {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", "container.on_will_change(function() table.move({}, 1, math.maxinteger - 1, 2) end)\n")
        let home = scratch.url.appendingPathComponent("home").path
        #expect(try Self.run("container", "create", "B", "--home", home, in: scratch).status == 0)
        let activate = try Self.run("container", "activate", "B", "--home", home, "--instruction-limit", "0", "--hook-timeout", "0.5", in: scratch)
        #expect(activate.status == 1, "\(activate.standardError)")
        #expect(activate.standardError.contains("envscript.lua:1: time limit exceeded: the container.on_will_change hook ran longer than 0.5 seconds"), "\(activate.standardError)")
        let list = try Self.run("container", "list", "--home", home, "--no-init", in: scratch)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("*  DEFAULT"), "the switch must not have happened: \(list.standardOutput)")
    }
}
