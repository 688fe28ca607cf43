@testable import LuaBridge
import Testing

/// Every operation leaves the Lua stack as deep as it found it, above all when it fails: a slot left
/// behind makes the next operation read or pop the wrong values.
@Suite struct StackBalanceTests {
    /// Runs `operation`, which must fail, and checks the stack depth did not change.
    private func expectBalancedFailure(_ lua: LuaState, _ operation: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = lua.stackDepth
        #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try operation() }
        #expect(lua.stackDepth == before, "stack depth \(before) before, \(lua.stackDepth) after", sourceLocation: sourceLocation)
    }

    @Test func readingATableThatContainsItselfFailsWithTheStackUnchanged() throws {
        let lua = try LuaState()
        try lua.execute("loop = {}; loop.next = loop; keyed = {}; keyed[keyed] = 1; listed = {}; listed[1] = listed")
        for name in ["loop", "keyed", "listed"] {
            expectBalancedFailure(lua) { _ = try lua.global(name) }
        }
        // The globals still read correctly afterwards: nothing was popped from the wrong place.
        try lua.execute("answer = 42")
        #expect(try lua.global("answer") == 42)
    }

    @Test func pushingAValueThatFailsHalfwayLeavesNoPartialTable() throws {
        let lua = try LuaState()
        let function = try lua.load("return 1", chunkName: "=f")
        function.release()
        var table = LuaTable()
        table.array = [1, 2, .function(function), 4]
        table.fields = ["nested": .table(LuaTable(array: [.function(function)]))]
        expectBalancedFailure(lua) { try lua.setGlobal("broken", .table(table)) }
        #expect(try lua.global("broken") == .nil)
    }

    @Test func callingWithAnArgumentThatCannotBePushedLeavesTheStackUnchanged() throws {
        let lua = try LuaState()
        let released = try lua.load("return 1", chunkName: "=f")
        released.release()
        let echo = try lua.load("return ...", chunkName: "=echo")
        expectBalancedFailure(lua) { try echo.call([1, .table(LuaTable(array: [2, .function(released)]))]) }
        #expect(try echo.call([7]) == [7])
    }

    @Test func typedCallWhoseResultCannotBeReadLeavesTheStackUnchanged() throws {
        let lua = try LuaState()
        let makeLoop = try lua.load("local t = {}; t.self = t; return t", chunkName: "=loop")
        expectBalancedFailure(lua) { _ = try makeLoop.call(returning: LuaValue.self) }
        expectBalancedFailure(lua) { _ = try makeLoop.call(returning: Int.self) }
    }

    @Test func failedCallsAndLoadsLeaveTheStackUnchanged() throws {
        let lua = try LuaState()
        expectBalancedFailure(lua) { try lua.execute("error('no')") }
        expectBalancedFailure(lua) { try lua.execute("this is not lua") }
        let fails = try lua.load("error({})", chunkName: "=fails")
        expectBalancedFailure(lua) { _ = try fails.call(returning: Int.self) }
    }

    @Test func aModuleMemberThatCannotBePushedFailsRequireNamingIt() throws {
        let lua = try LuaState()
        let released = try lua.load("return 1", chunkName: "=f")
        released.release()
        var module = LuaModule("flags")
        module.value("good", 1)
        module.value("stale", .function(released))
        lua.register(module)
        let error = try #require(throws: LuaError.self) { try lua.execute("return require('flags')", chunkName: "=main") }
        #expect(error.message.contains("module 'flags': member 'stale' cannot be made"))
        // Nothing half-built was cached as the module: a second require fails the same way.
        let again = try #require(throws: LuaError.self) { try lua.execute("return require('flags')", chunkName: "=main") }
        #expect(again.message.contains("member 'stale'"))
    }

    @Test func argumentsThatCannotBeReadFailInsideSwiftFunctionsWithoutUnbalancingTheCaller() throws {
        let lua = try LuaState()
        lua.setGlobal("inspect", function: LuaFunction("inspect") { call in
            _ = try call.value(1)
            return 0
        })
        let error = try #require(throws: LuaError.self) {
            try lua.execute("local t = {}; t.t = t; local a, b, c = 1, 2, 3; inspect(t)", chunkName: "=main")
        }
        #expect(error.message.contains("bad argument #1 to 'inspect'"))
        #expect(error.message.contains("the table contains itself"))
        #expect(try lua.execute("local t = {}; t.t = t; return (pcall(inspect, t)), 'after'") == [false, "after"])
    }
}
