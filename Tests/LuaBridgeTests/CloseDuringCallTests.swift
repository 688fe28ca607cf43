import LuaBridge
import Testing

/// A state is never closed under a running call: an explicit `close()` is refused, and letting go of
/// the last reference closes it only once the outermost call has returned.
@Suite struct CloseDuringCallTests {
    /// Holds the state so that a Swift function called from Lua can drop or close it.
    final class Holder {
        var lua: LuaState?
    }

    @Test func closeFromInsideACallIsRefusedAndTheScriptGoesOn() throws {
        let lua = try LuaState()
        let holder = Holder()
        holder.lua = lua
        lua.setGlobal("close_me", function: LuaFunction("close_me") { (_: LuaValue) -> String in
            do {
                try holder.lua?.close()
                return "closed"
            } catch let error as LuaError {
                return "\(error.kind.rawValue): \(error.message)"
            }
        })
        let results = try lua.execute("local answer = close_me(nil); local after = {}; for i = 1, 1000 do after[i] = i end; return answer, #after")
        #expect(results.first?.stringValue?.hasPrefix("stateInUse: the Lua state cannot be closed while a call into it is running") == true)
        #expect(results.last == 1000)
        #expect(lua.isOpen)
        #expect(!lua.isInCall)
        try lua.close()
        #expect(!lua.isOpen)
    }

    @Test func droppingTheLastReferenceDuringACallClosesOnceItReturns() throws {
        let holder = Holder()
        holder.lua = try LuaState()
        holder.lua!.setGlobal("drop", function: LuaFunction("drop") { (_: LuaValue) -> Bool in
            holder.lua = nil
            return true
        })
        let script = try holder.lua!.load("local dropped = drop(nil); collectgarbage(); local t = {} for i = 1, 100 do t[i] = tostring(i) end; return dropped, #t", chunkName: "=drop")
        #expect(try script.call() == [true, 100])
        // The state closed as the call returned: the kept function can no longer be used.
        let error = try #require(throws: LuaError.self) { try script.call() }
        #expect(error.kind == .stateClosed)
    }

    @Test func droppingTheStateInANestedCallWaitsForTheOutermost() throws {
        let holder = Holder()
        holder.lua = try LuaState()
        let lua = holder.lua!
        lua.setGlobal("drop", function: LuaFunction("drop") { (_: LuaValue) -> Bool in
            holder.lua = nil
            return true
        })
        let inner = try lua.load("return drop(nil)", chunkName: "=inner")
        lua.setGlobal("run_inner", function: LuaFunction("run_inner") { (_: LuaValue) -> Bool in try inner.call(returning: Bool.self) })
        let outer = try lua.load("local a = run_inner(nil); local s = string.rep('x', 10); return a, #s", chunkName: "=outer")
        _ = consume lua
        #expect(try outer.call() == [true, 10])
        #expect(throws: LuaError.self) { try outer.call() }
    }
}
