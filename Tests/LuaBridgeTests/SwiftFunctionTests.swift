import LuaBridge
import Testing

/// Swift functions called from Lua: arguments, results and errors, with no longjmp over Swift frames.
@Suite struct SwiftFunctionTests {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused by Swift" }
    }

    @Test func typedFunctionAddsIntegers() throws {
        let lua = try LuaState()
        lua.setGlobal("add", function: LuaFunction("add") { (a: Int, b: Int) in a + b })
        #expect(try lua.execute("return add(2, 40)") == [42])
        #expect(try lua.execute("return add(2.0, 3)") == [5])
    }

    @Test func argumentErrorsNameFunctionPositionAndTypes() throws {
        let lua = try LuaState()
        var module = LuaModule("tweak")
        module.function("set") { LuaFunction($0) { (feature: String, variable: String, value: Int) in value } }
        lua.register(module)
        let error = try #require(throws: LuaError.self) {
            try lua.execute("local tweak = require 'tweak'\ntweak.set('a', 'b', {})", chunkName: "@flags.lua")
        }
        #expect(error.message == "flags.lua:2: bad argument #3 to 'tweak.set' (number expected, got table)")
        #expect(error.location?.chunk == "flags.lua")
        #expect(error.location?.line == 2)
        #expect(error.traceback?.hasPrefix("stack traceback:") == true)

        let missing = try #require(throws: LuaError.self) { try lua.execute("require('tweak').set('a')", chunkName: "=t") }
        #expect(missing.message.hasSuffix("bad argument #2 to 'tweak.set' (string expected, got no value)"))
        let fraction = try #require(throws: LuaError.self) { try lua.execute("require('tweak').set('a', 'b', 1.5)", chunkName: "=t") }
        #expect(fraction.message.hasSuffix("bad argument #3 to 'tweak.set' (number has no integer representation)"))
    }

    @Test func swiftErrorsBecomeLuaErrorsThatPcallCatches() throws {
        let lua = try LuaState()
        lua.setGlobal("refuse", function: LuaFunction("refuse") { (_: LuaValue) throws -> Int in throw Refused() })
        let error = try #require(throws: LuaError.self) { try lua.execute("\n\nrefuse(1)", chunkName: "@hooks.lua") }
        #expect(error.message == "hooks.lua:3: refused by Swift")
        #expect(error.kind == .runtime)
        let caught = try lua.execute("local ok, message = pcall(refuse, 1); return ok, message", chunkName: "=x")
        // Called straight from pcall (a C function) there is no Lua line to name, as with luaL_error.
        #expect(caught == [false, "refused by Swift"])
    }

    @Test func nestedCallsBackIntoLuaKeepErrorsAndState() throws {
        let lua = try LuaState()
        lua.setGlobal("apply", function: LuaFunction("apply") { call in
            let function = try call.function(1)
            let value = try function.call(try call.value(2))
            call.push(value)
            return 1
        })
        #expect(try lua.execute("return apply(function(x) return x .. '!' end, 'hi')") == ["hi!"])
        // An error raised three levels down comes back out with the original position.
        let error = try #require(throws: LuaError.self) {
            try lua.execute("return apply(function(x)\n error('deep ' .. x)\n end, 'trouble')", chunkName: "@nested.lua")
        }
        #expect(error.message == "nested.lua:2: deep trouble")
        // Coroutines that call into Swift, which calls back into Lua, run on the coroutine.
        let values = try lua.execute("""
            local co = coroutine.wrap(function()
              local a = apply(function(x) return x + 1 end, 1)
              coroutine.yield(a)
              return apply(function(x) return x * 10 end, a)
            end)
            return co(), co()
            """)
        #expect(values == [2, 20])
        // Yielding across the Swift frame is refused with Lua's own error, not a crash.
        let yieldError = try #require(throws: LuaError.self) {
            try lua.execute("coroutine.wrap(function() apply(function() coroutine.yield() end) end)()")
        }
        #expect(yieldError.message.contains("attempt to yield across a C-call boundary"))
    }

    @Test func rawFunctionsReturnSeveralResults() throws {
        let lua = try LuaState()
        lua.setGlobal("pair", function: LuaFunction("pair") { call in
            try call.results(.integer(Int(call.argumentCount)), "two")
        })
        #expect(try lua.execute("return pair(nil, nil, nil)") == [3, "two"])
    }
}

/// A type of an embedding app made readable and pushable through the stack view, with no raw state.
struct Point: LuaReadable, LuaPushable, Equatable {
    var x: Int
    var y: Int

    static var luaTypeName: String { "point" }

    /// Reads `"x,y"`.
    static func luaRead(from stack: LuaStackView, at index: Int32) -> Point? {
        guard let text = stack.string(at: index) else { return nil }
        let parts = text.split(separator: ",").compactMap { Int($0) }
        return parts.count == 2 ? Point(x: parts[0], y: parts[1]) : nil
    }

    func luaPush(onto stack: LuaStackView) {
        try? stack.push(.table(LuaTable(fields: ["x": .integer(x), "y": .integer(y)])))
    }
}

@Suite struct StackViewConformerTests {
    @Test func anAppTypeConformsThroughTheStackView() throws {
        let lua = try LuaState()
        lua.setGlobal("mirror", function: LuaFunction("mirror") { (point: Point) in Point(x: -point.x, y: point.y) })
        #expect(try lua.execute("local p = mirror('3,4'); return p.x, p.y") == [-3, 4])
        let error = try #require(throws: LuaError.self) { try lua.execute("mirror({})", chunkName: "=m") }
        #expect(error.message == "m:1: bad argument #1 to 'mirror' (point expected, got table)")
        let make = try lua.load("return ...", chunkName: "=make")
        #expect(try make.call("5,6", returning: String.self) == "5,6")
    }
}
