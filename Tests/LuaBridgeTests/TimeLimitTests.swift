import LuaBridge
import Testing

/// The wall-clock limit: it stops Lua code that the instruction budget would let run, cannot be caught
/// by the script, nests with the earlier deadline winning, and lets no host function run once hit.
@Suite struct TimeLimitTests {
    func unbudgeted() throws -> LuaState { try LuaState(options: LuaOptions(instructionLimit: nil)) }

    @Test func aLoopIsStoppedWhenTheTimeIsUp() throws {
        let lua = try unbudgeted()
        let error = try #require(throws: LuaError.self) {
            try lua.withTimeLimit(seconds: 0.1, reason: "--timeout 0.1s") {
                try lua.execute("pcall(function() while true do end end) return 'escaped'", chunkName: "@spin.lua")
            }
        }
        #expect(error.kind == .timeLimit)
        #expect(error.message == "spin.lua:1: time limit exceeded: --timeout 0.1s")
        // The limit is gone once the block is left.
        #expect(try lua.execute("local n = 0 for i = 1, 1e6 do n = n + 1 end return n") == [1_000_000])
    }

    @Test func theEarlierDeadlineWinsWithItsOwnReason() throws {
        let lua = try unbudgeted()
        let inner = try #require(throws: LuaError.self) {
            try lua.withTimeLimit(seconds: 30, reason: "outer") {
                try lua.withTimeLimit(seconds: 0.05, reason: "inner") { try lua.execute("while true do end") }
            }
        }
        #expect(inner.message.hasSuffix("time limit exceeded: inner"))
        let outer = try #require(throws: LuaError.self) {
            try lua.withTimeLimit(seconds: 0.05, reason: "outer") {
                try lua.withTimeLimit(seconds: 30, reason: "inner") { try lua.execute("while true do end") }
            }
        }
        #expect(outer.message.hasSuffix("time limit exceeded: outer"))
    }

    @Test func noHostFunctionRunsOnceALimitIsHit() throws {
        for useTimeLimit in [false, true] {
            let lua = try LuaState(options: LuaOptions(instructionLimit: useTimeLimit ? nil : 1_000_000))
            var calls = 0
            lua.setGlobal("create", function: LuaFunction("create") { _ in calls += 1; return 0 })
            let script = """
                local co = coroutine.create(function() while true do end end)
                local ok = coroutine.resume(co)
                create()
                return 'escaped'
                """
            let error = try #require(throws: LuaError.self) {
                if useTimeLimit {
                    _ = try lua.withTimeLimit(seconds: 0.1, reason: "test") { try lua.execute(script) }
                } else {
                    _ = try lua.execute(script)
                }
            }
            #expect(error.kind == (useTimeLimit ? .timeLimit : .instructionLimit))
            #expect(calls == 0, "the host function ran after the \(useTimeLimit ? "time" : "instruction") limit")
        }
    }
}
