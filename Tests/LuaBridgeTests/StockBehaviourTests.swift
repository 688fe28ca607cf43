import Foundation
import LuaBridge
import Testing

/// What the sandbox keeps behaves as stock Lua 5.4: the answers and messages below are those of
/// Debian's `lua5.4` (5.4.4) for the same code.
@Suite struct StockBehaviourTests {
    func evaluate(_ source: String, options: LuaOptions = LuaOptions()) throws -> [LuaValue] {
        try LuaState(options: options).execute(source, chunkName: "@script.lua")
    }

    func failure(_ source: String) throws -> String {
        try #require(throws: LuaError.self) { try evaluate(source) }.message
    }

    @Test func argumentErrorsOfWrappedFunctionsNameTheFunctionAndTheLine() throws {
        #expect(try failure("setmetatable(1, {})") == "script.lua:1: bad argument #1 to 'setmetatable' (table expected, got number)")
        #expect(try failure("\nsetmetatable({}, 1)") == "script.lua:2: bad argument #2 to 'setmetatable' (nil or table expected, got number)")
        #expect(try failure("coroutine.create(1)") == "script.lua:1: bad argument #1 to 'create' (function expected, got number)")
        #expect(try failure("coroutine.wrap()") == "script.lua:1: bad argument #1 to 'wrap' (function expected, got no value)")
        #expect(try failure("load({})") == "script.lua:1: bad argument #1 to 'load' (function expected, got table)")
        #expect(try failure("setmetatable(setmetatable({}, {__metatable = 1}), {})") == "script.lua:1: cannot change a protected metatable")
    }

    @Test func loadTakesStockModesAndAnswersNilAndAMessage() throws {
        #expect(try evaluate("return load('return 1', 'x', 'bt')()") == [1])
        #expect(try evaluate("return load('return 1', 'x', 'b')") == [.nil, "attempt to load a text chunk (mode is 'b')"])
        #expect(try evaluate("return load(string.dump(function() end), 'x', 't')") == [.nil, "attempt to load a binary chunk (mode is 't')"])
        #expect(try evaluate("return load(string.dump(function() end), 'x', 'bt') ~= nil") == [true])
        #expect(try evaluate("return load('x =', '=name')") == [.nil, "name:1: unexpected symbol near <eof>"])
    }

    @Test func gsubThatChangesNothingReturnsItsSubjectWithoutCopyingIt() throws {
        // A copy would hold the 64 MiB three times over (the subject, the buffer, the result): more than
        // the 160 MiB cap.
        let lua = try LuaState(options: LuaOptions(memoryLimit: 160 << 20, instructionLimit: nil))
        let answer = try lua.execute("""
            local s = string.rep('a', 64 << 20)
            local same, count = s:gsub('b', 'c')
            local kept, matches = s:gsub('a+', function() return nil end)
            return same == s, count, kept == s, matches
            """)
        #expect(answer == [true, 0, true, 1])
        // Replacements still land where they belong.
        #expect(try evaluate("return ('hello world'):gsub('o', {o = '0'})") == ["hell0 w0rld", 2])
        #expect(try evaluate("return ('abc'):gsub('%w', function(c) if c == 'b' then return 'B' end end)") == ["aBc", 3])
        #expect(try evaluate("return ('abc'):gsub('', '-')") == ["-a-b-c-", 4])
    }

    @Test func loadfileAndDofileComeBackWithIOAndLoadTextOnly() throws {
        let folder = NSTemporaryDirectory() + "stock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "return ..., 42".write(toFile: folder + "/chunk.lua", atomically: true, encoding: .utf8)
        // Without io they read under the script roots only (none here): stock Lua's nil and message.
        #expect(try evaluate("return loadfile('\(folder)/chunk.lua')")
            == [.nil, .string("cannot open \(folder)/chunk.lua: scripts load code only from no folder, as require does")])
        var options = LuaOptions()
        options.libraries = [.io]
        let answer = try evaluate("""
            local f = loadfile('\(folder)/chunk.lua')
            local g, message = loadfile('\(folder)/chunk.lua', 'b')
            local out = io.open('\(folder)/dumped', 'wb') out:write(string.dump(function() end)) out:close()
            local h, refused = loadfile('\(folder)/dumped')
            return select(2, f('x')), g, message, h, refused, select(2, dofile('\(folder)/chunk.lua'))
            """, options: options)
        #expect(answer == [42, .nil, "attempt to load a text chunk (mode is 'b')", .nil,
                           "attempt to load a binary chunk (binary chunks are not allowed in the sandbox)", 42])
    }
}
