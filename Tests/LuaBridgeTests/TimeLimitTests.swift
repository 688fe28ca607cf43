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

/// Ways around the limits found in review, each closed.
@Suite struct LimitEscapeTests {
    @Test func toBeClosedVariablesWorkAsInStockLua() throws {
        let lua = try LuaState()
        let answer = try lua.execute("""
            local log = {}
            local function closer(name) return setmetatable({}, {__close = function(_, err) log[#log + 1] = name .. ':' .. tostring(err) end}) end
            do local a <close> = closer('a') local b <close> = closer('b') end
            pcall(function() local c <close> = closer('c') error('boom', 0) end)
            local co = coroutine.wrap(function() local d <close> = closer('d') coroutine.yield() end)
            co() co()
            return table.concat(log, ' ')
            """)
        #expect(answer == ["b:nil a:nil c:boom d:nil"])
    }

    /// A limit's error leaves a coroutine's hooks off for good: closing it then would run its
    /// to-be-closed handlers beyond every limit, in this call into Lua or a later one. The handlers
    /// here loop forever, one of them added to the metatable after `setmetatable`.
    @Test func aCoroutineStoppedByALimitIsNeverClosed() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: 1_000_000))
        try lua.execute("""
            forever = setmetatable({}, {__close = function() while true do end end})
            local late = {}
            later = setmetatable({}, late)
            late.__close = function() while true do end end
            co = coroutine.create(function() local x <close> = forever while true do end end)
            wrapped = coroutine.wrap(function() local x <close> = later while true do end end)
            caught = coroutine.wrap(function() local x <close> = forever while true do end end)
            """)
        // pcall cannot catch a limit's error: the call into Lua stops all the same.
        for start in ["coroutine.resume(co)", "wrapped()", "pcall(caught)"] {
            let error = try #require(throws: LuaError.self) { try lua.execute(start) }
            #expect(error.kind == .instructionLimit, "\(start): \(error.message)")
        }
        #expect(try lua.execute("return coroutine.close(co)")
            == [false, "cannot close a coroutine stopped by a limit (its to-be-closed variables are not closed)"])
        let again = try #require(throws: LuaError.self) { try lua.execute("wrapped()") }
        #expect(again.message.contains("cannot resume dead coroutine"))
        #expect(try lua.execute("return coroutine.status(co)") == ["dead"])
    }

    /// Found in review: once the memory cap was exceeded, remembering the coroutine needed memory
    /// itself, failed, and a later call closed it with hooks off.
    @Test func aCoroutineStoppedAfterTheMemoryCapIsNeverClosedEither() throws {
        let lua = try LuaState(options: LuaOptions(memoryLimit: 8 << 20, instructionLimit: 1_000_000))
        try lua.execute("""
            co = coroutine.create(function()
              local x <close> = setmetatable({}, {__close = function() while true do end end})
              pcall(function() local t = {} for i = 1, math.huge do t[i] = ('x'):rep(1000) .. i end end)
              while true do end
            end)
            """)
        #expect(throws: LuaError.self) { try lua.execute("coroutine.resume(co)") }
        lua.collectGarbage()
        #expect(try lua.execute("return coroutine.close(co)")
            == [false, "cannot close a coroutine stopped by a limit (its to-be-closed variables are not closed)"])
    }

    /// Found in review: the coroutine given to resume was no longer on the stack when it was marked,
    /// and a collection could free it first (AddressSanitizer runs these tests in CI).
    @Test func aCoroutineStoppedByALimitIsMarkedWhileStillAlive() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: 100_000))
        for _ in 0..<20 {
            #expect(throws: LuaError.self) {
                try lua.execute("""
                    collectgarbage('incremental', 1, 1000, 40) collectgarbage()
                    coroutine.resume(coroutine.create(function() while true do end end))
                    """)
            }
        }
        #expect(try lua.execute("return select('#', coroutine.resume(coroutine.create(function(...) return ... end), 1, 2, 3))") == [4])
    }

    @Test func aToBeClosedHandlerRunAfterALimitIsStoppedToo() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: 1_000_000))
        let error = try #require(throws: LuaError.self) {
            try lua.execute("do local x <close> = setmetatable({}, {__close = function() while true do end end}) while true do end end")
        }
        #expect(error.kind == .instructionLimit)
    }

    @Test func aCoroutineMadeBeforeAnyLimitIsStillStopped() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: nil))
        try lua.execute("spin = coroutine.wrap(function() while true do end end) other = coroutine.create(function() while true do end end)")
        for call in ["spin()", "coroutine.resume(other) error('escaped')"] {
            let error = try #require(throws: LuaError.self) {
                try lua.withTimeLimit(seconds: 0.1, reason: "test") { try lua.execute(call) }
            }
            #expect(error.kind == .timeLimit, "\(call)")
        }
    }

    @Test func anInnerLimitThatFiredDoesNotStopTheCaller() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: nil))
        // The function holds the state it is registered in: closing breaks that cycle.
        defer { try? lua.close() }
        lua.setGlobal("stuck_hook", function: LuaFunction("stuck_hook") { call in
            let spin = try call.function(1)
            _ = try lua.withTimeLimit(seconds: 0.05, reason: "the hook") { try spin.call() }
            return 0
        })
        let results = try lua.withTimeLimit(seconds: 30, reason: "the outer call") {
            try lua.execute("""
                local ok, message = pcall(stuck_hook, function() while true do end end)
                local n = 0 for i = 1, 1e5 do n = n + 1 end
                return ok, message, n
                """)
        }
        #expect(results.first == .boolean(false))
        #expect(results[1].stringValue?.contains("time limit exceeded: the hook") == true)
        #expect(results.last == .integer(100_000))
    }

    @Test func longSetsAndCapturesAreChargedByTheirLength() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: 5_000_000))
        for pattern in ["string.find(string.rep('c', 1e5), '[' .. string.rep('a', 1e6) .. ']')",
                        "string.find(string.rep('a', 2e5), '(a*)%1b')"] {
            let error = try #require(throws: LuaError.self) { try lua.execute(pattern) }
            #expect(error.kind == .instructionLimit, "\(pattern)")
        }
    }
}
