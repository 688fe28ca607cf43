import LuaBridge
import Testing

/// Every escape from the sandbox is tried and refused.
@Suite struct SandboxTests {
    func evaluate(_ source: String, options: LuaOptions = LuaOptions()) throws -> [LuaValue] {
        try LuaState(options: options).execute(source, chunkName: "=sandbox")
    }

    @Test func dangerousLibrariesAndFunctionsAreAbsent() throws {
        let absent = try evaluate("""
            return io, debug.sethook, debug.getlocal, debug.getupvalue, debug.setupvalue, debug.upvaluejoin,
                   debug.getregistry, debug.setmetatable, debug.setuservalue, package.loadlib, package.cpath,
                   os.execute, os.exit, os.remove, os.rename, os.getenv, os.tmpname, require('string') == string
            """)
        #expect(absent.dropLast().allSatisfy { $0 == .nil })
        #expect(absent.last == true)
        // What the sandbox keeps of os: the clock and the calendar.
        #expect(try evaluate("return type(os.time()), type(os.clock()), type(os.date('%Y'))") == ["number", "number", "string"])
    }

    @Test func finalizersRunAsOrdinaryCallsWithinTheLimits() throws {
        // Lua itself never marks the table: a finalizer that loops stops at the budget, in the call into
        // Lua that ran collectgarbage, never with hooks off.
        let error = try #require(throws: LuaError.self) {
            try evaluate("setmetatable({}, {__gc = function() while true do end end}) collectgarbage()", options: LuaOptions(instructionLimit: 1_000_000))
        }
        #expect(error.message.contains("instruction limit exceeded"))
        #expect(try evaluate("return getmetatable(setmetatable({}, {__index = {x = 1}})).__index.x") == [1])
        // Each finalizer once, with its table; one that errors does not stop the others.
        #expect(try evaluate("""
            local ran = {}
            local meta = { __gc = function(t) ran[#ran + 1] = t.n; if t.n == 2 then error('ignored') end end }
            for n = 1, 3 do setmetatable({ n = n }, meta) end
            collectgarbage(); collectgarbage()
            table.sort(ran)
            return table.concat(ran, ',')
            """) == ["1,2,3"])
        // A table that got its metatable again is finalized once; one still reachable not at all.
        #expect(try evaluate("""
            local count = 0
            local meta = { __gc = function() count = count + 1 end }
            local kept = setmetatable({}, meta)
            do local t = setmetatable({}, meta); setmetatable(t, meta) end
            collectgarbage(); collectgarbage()
            return count, kept ~= nil
            """) == [1, true])
        // The state closes without running finalizers still waiting.
        let lua = try LuaState()
        try lua.execute("do setmetatable({}, { __gc = function() while true do end end }) end")
        try lua.close()
    }

    @Test func xpcallStillWorksWithItsHandler() throws {
        #expect(try evaluate("return xpcall(error, function(m) return 'handled ' .. m end, 'boom')") == [false, "handled boom"])
        #expect(try evaluate("return xpcall(function(a, b) return a + b end, print, 2, 3)") == [true, 5])
        // Yielding across xpcall inside a coroutine still works.
        #expect(try evaluate("""
            local co = coroutine.wrap(function() return xpcall(function() coroutine.yield(1) return 2 end, print) end)
            return co(), co()
            """) == [1, true, 2])
    }

    @Test func binaryChunksAreRefusedThroughLoadButThoseStringDumpMadeHere() throws {
        // string.dump's own output loads back (a serializer's round trip), in mode "b" too.
        #expect(try evaluate("return load(string.dump(function() return 42 end))()") == [42])
        #expect(try evaluate("return load(string.dump(function() return 42 end, true), 'chunk', 'b')()") == [42])
        // Any other bytecode is refused: a dump changed by one byte, or one made by another state.
        let changed = try evaluate("""
            local bytecode = string.dump(function() return 42 end)
            return load(bytecode:sub(1, -2) .. string.char((bytecode:byte(-1) + 1) % 256))
            """)
        #expect(changed == [.nil, "attempt to load a binary chunk (binary chunks are not allowed in the sandbox)"])
        let elsewhere = try evaluate("return string.dump(function() return 42 end)").first ?? .nil
        let other = try LuaState().execute("return load(...)", chunkName: "=sandbox", arguments: [elsewhere])
        #expect(other == [.nil, "attempt to load a binary chunk (binary chunks are not allowed in the sandbox)"])
        // Text still loads, with or without an environment.
        #expect(try evaluate("return load('return 1 + 1')()") == [2])
        #expect(try evaluate("return load('return x', 'chunk', 't', {x = 7})()") == [7])
        // A reader function producing bytecode is refused, even string.dump's.
        let reader = try evaluate("""
            local code, done = string.dump(function() return 1 end), false
            return load(function() if done then return nil end done = true return code end)
            """)
        #expect(reader[0] == .nil)
    }

    @Test func requireCannotReachNativeCodeOrPaths() throws {
        let error = try #require(throws: LuaError.self) { try evaluate("return require('os.execute')") }
        #expect(error.message.contains("module 'os.execute' not found"))
        // Dots become slashes: a name cannot climb out of a root.
        let traversal = try #require(throws: LuaError.self) { try evaluate("return require('../../etc/passwd')") }
        #expect(traversal.message.contains("module '../../etc/passwd' not found"))
        // Only preload, host modules and Lua files: the C searchers are gone.
        #expect(try evaluate("return #package.searchers") == [3])
    }

    /// As in stock Lua, scripts see the strings' metatable and may add to it (penlight's `%` operator,
    /// Lua's own bwcoercion): it is theirs, in their state, and reaches nothing outside it.
    @Test func theStringMetatableIsStockLuas() throws {
        #expect(try evaluate("return getmetatable('').__index == string") == [true])
        #expect(try evaluate("getmetatable('').__mod = function(a, b) return a:format(b) end return '%d!' % 7") == ["7!"])
        #expect(throws: LuaError.self) { try evaluate("setmetatable('', {})") }
        #expect(try evaluate("return ('abc'):upper()") == ["ABC"])
    }

    @Test func debugSethookIsUnavailableUnlessOptedIn() throws {
        #expect(throws: LuaError.self) { try evaluate("debug.sethook()") }
        var options = LuaOptions()
        options.libraries = [.debug, .io, .os]
        #expect(try evaluate("return type(debug.sethook), type(io.open), type(os.getenv)", options: options) == ["function", "function", "function"])
    }
}
