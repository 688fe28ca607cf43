import LuaBridge
import Testing

/// Lua's pattern functions are covered by the instruction budget and the time limit: a pathological
/// pattern stops like a runaway loop, and a script's pcall cannot swallow it.
@Suite struct PatternBudgetTests {
    static let pathological = #"return string.find(string.rep("a", 1e6), ".-.-.-.-.-.-.-b")"#

    @Test func aPathologicalPatternIsStoppedByTheDefaultBudget() throws {
        let lua = try LuaState()
        let error = try #require(throws: LuaError.self) { try lua.execute(Self.pathological, chunkName: "@slow.lua") }
        #expect(error.kind == .instructionLimit)
        #expect(error.message.hasPrefix("slow.lua:1: instruction limit exceeded"))
    }

    @Test(arguments: [
        #"string.match(string.rep("a", 5e4), "(.-)(.-)(.-)b")"#,
        #"string.gsub(string.rep("a", 5e4), ".-.-.-b", "x")"#,
        #"for _ in string.gmatch(string.rep("a", 5e4), ".-.-.-b") do end"#,
        #"string.find(string.rep("(", 5e4), "%b()%b()")"#,
        #"("x"):rep(3e4):find("x*x*x*y")"#,
    ])
    func everyPatternFunctionSpendsTheBudget(_ statement: String) throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: 5_000_000))
        let error = try #require(throws: LuaError.self) { try lua.execute("pcall(function() \(statement) end) return 'escaped'") }
        #expect(error.kind == .instructionLimit)
    }

    @Test func aPatternIsStoppedByTheTimeLimitWithoutABudget() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: nil))
        let error = try #require(throws: LuaError.self) {
            try lua.withTimeLimit(seconds: 0.2, reason: "the test allows 0.2 s") { try lua.execute(Self.pathological) }
        }
        #expect(error.kind == .timeLimit)
        #expect(error.message.contains("time limit exceeded: the test allows 0.2 s"))
    }

    @Test func ordinaryPatternsOverLargeSubjectsStayWithinTheBudget() throws {
        let lua = try LuaState()
        let results = try lua.execute(#"""
            local text = string.rep("key=value; ", 20000)
            local count = 0
            for k, v in text:gmatch("(%w+)=(%w+)") do count = count + 1 end
            local replaced, n = text:gsub("value", "v")
            return count, n, #replaced
            """#)
        #expect(results == [.integer(20000), .integer(20000), .integer(20000 * 7)])
    }
}
