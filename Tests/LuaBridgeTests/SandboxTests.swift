import LuaBridge
import Testing

/// Every escape from the sandbox is tried and refused.
@Suite struct SandboxTests {
    func evaluate(_ source: String, options: LuaOptions = LuaOptions()) throws -> [LuaValue] {
        try LuaState(options: options).execute(source, chunkName: "=sandbox")
    }

    @Test func dangerousLibrariesAndFunctionsAreAbsent() throws {
        let absent = try evaluate("""
            return io, debug, package.loadlib, package.cpath, dofile, loadfile, os.execute,
                   os.exit, os.remove, os.rename, os.getenv, os.tmpname, require('string') == string
            """)
        #expect(absent.dropLast().allSatisfy { $0 == .nil })
        #expect(absent.last == true)
        // What the sandbox keeps of os: the clock and the calendar.
        #expect(try evaluate("return type(os.time()), type(os.clock()), type(os.date('%Y'))") == ["number", "number", "string"])
    }

    @Test func finalizersCannotBeSetFromScripts() throws {
        // A __gc metamethod runs with hooks off, beyond the instruction budget.
        let error = try #require(throws: LuaError.self) {
            try evaluate("setmetatable({}, {__gc = function() while true do end end}) collectgarbage()")
        }
        #expect(error.message.contains("__gc metamethods are not allowed in the sandbox"))
        #expect(try evaluate("return getmetatable(setmetatable({}, {__index = {x = 1}})).__index.x") == [1])
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

    @Test func binaryChunksAreRefusedThroughLoad() throws {
        let dumped = try evaluate("""
            local bytecode = string.dump(function() return 42 end)
            local f, message = load(bytecode)
            return f, message
            """)
        #expect(dumped[0] == .nil)
        #expect(dumped[1].stringValue?.contains("attempt to load a binary chunk") == true)
        // Mode "b" answers nil and a message, as stock Lua does; bytecode never loads.
        let explicit = try evaluate("return load(string.dump(function() return 42 end), 'chunk', 'b')")
        #expect(explicit == [.nil, "attempt to load a binary chunk (binary chunks are not allowed in the sandbox)"])
        // Text still loads, with or without an environment.
        #expect(try evaluate("return load('return 1 + 1')()") == [2])
        #expect(try evaluate("return load('return x', 'chunk', 't', {x = 7})()") == [7])
        // A reader function producing bytecode is refused as well.
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
