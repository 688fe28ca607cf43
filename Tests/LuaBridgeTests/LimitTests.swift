import LuaBridge
import Testing

/// The instruction budget and the memory cap stop runaway scripts; the state stays usable afterwards.
@Suite struct LimitTests {
    func limited(instructions: Int? = 1_000_000, memory: Int? = 16 << 20) throws -> LuaState {
        try LuaState(options: LuaOptions(memoryLimit: memory, instructionLimit: instructions))
    }

    @Test func runawayLoopIsStopped() throws {
        let lua = try limited()
        let error = try #require(throws: LuaError.self) { try lua.execute("while true do end", chunkName: "@loop.lua") }
        #expect(error.kind == .instructionLimit)
        #expect(error.message.contains("instruction limit exceeded"))
        #expect(error.message.hasPrefix("loop.lua:1:"))
        // The next call gets a fresh budget.
        #expect(try lua.execute("local n = 0 for i = 1, 1000 do n = n + i end return n") == [500500])
    }

    @Test func pcallCannotSwallowTheLimit() throws {
        let lua = try limited()
        let swallowed = try #require(throws: LuaError.self) {
            try lua.execute("""
                for i = 1, 10 do pcall(function() while true do end end) end
                return 'escaped'
                """)
        }
        #expect(swallowed.kind == .instructionLimit)
        let quickReturn = try #require(throws: LuaError.self) {
            try lua.execute("pcall(function() while true do end end) return 'escaped'")
        }
        #expect(quickReturn.kind == .instructionLimit)
        let handler = try #require(throws: LuaError.self) {
            try lua.execute("xpcall(function() while true do end end, function() while true do end end) return 1")
        }
        #expect(handler.kind == .instructionLimit)
    }

    @Test func runawayCoroutineIsStopped() throws {
        let lua = try limited()
        let error = try #require(throws: LuaError.self) {
            try lua.execute("local co = coroutine.wrap(function() while true do end end) co() return 1")
        }
        #expect(error.kind == .instructionLimit)
    }

    @Test func budgetCoversNestedCallsFromSwift() throws {
        let lua = try limited()
        lua.setGlobal("again", function: LuaFunction("again") { call in
            let function = try call.function(1)
            while true { _ = try function.call() }
        })
        let error = try #require(throws: LuaError.self) { try lua.execute("again(function() for i = 1, 100 do end end)") }
        #expect(error.kind == .instructionLimit)
    }

    @Test func memoryBombIsStoppedByTheCap() throws {
        let lua = try limited(instructions: nil, memory: 8 << 20)
        let error = try #require(throws: LuaError.self) {
            try lua.execute("local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 64) .. i end")
        }
        #expect(error.kind == .memoryLimit)
        #expect(error.message.contains("memory limit of 8 MiB exceeded"))
        let repeated = try #require(throws: LuaError.self) { try lua.execute("return string.rep('x', 1 << 30)") }
        #expect(repeated.kind == .memoryLimit)
        lua.collectGarbage()
        #expect(lua.memoryInUse < 8 << 20)
        #expect(try lua.execute("return #string.rep('y', 1000)") == [1000])
    }

    @Test func pcallInsideABombStillEndsBounded() throws {
        let lua = try limited(instructions: 5_000_000, memory: 8 << 20)
        let error = try #require(throws: LuaError.self) {
            try lua.execute("local t = {} while true do pcall(function() t[#t + 1] = string.rep('z', 4096) .. #t end) end")
        }
        #expect(error.kind == .instructionLimit || error.kind == .memoryLimit)
        #expect(lua.memoryInUse <= (8 << 20) + (1 << 20))
    }

    @Test func pcallCannotSwallowTheMemoryCapEvenWithoutABudget() throws {
        let lua = try limited(instructions: nil, memory: 4 << 20)
        let error = try #require(throws: LuaError.self) {
            try lua.execute("""
                local ok = pcall(string.rep, 'x', 1 << 30)
                local n = 0
                for i = 1, 1e7 do n = n + 1 end
                return 'escaped', ok
                """)
        }
        #expect(error.kind == .memoryLimit)
        // The next call starts afresh.
        #expect(try lua.execute("return #string.rep('x', 1000)") == [1000])
    }

    @Test func limitsCanBeChangedOrRemoved() throws {
        let lua = try limited(instructions: 1000)
        #expect(throws: LuaError.self) { try lua.execute("for i = 1, 100000 do end") }
        lua.instructionLimit = nil
        #expect(try lua.execute("local n = 0 for i = 1, 100000 do n = i end return n") == [100000])
        #expect(lua.instructionLimit == nil)
        #expect(lua.memoryLimit == 16 << 20)
    }
}
