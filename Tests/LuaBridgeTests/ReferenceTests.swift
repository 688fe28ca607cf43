import LuaBridge
import Testing

/// Registry references: kept, called, released; none leaks or outlives the state.
@Suite struct ReferenceTests {
    @Test func tenThousandRegisterUnregisterCyclesLeakNothing() throws {
        let lua = try LuaState()
        var hooks: [LuaFunctionRef] = []
        lua.setGlobal("on_change", function: LuaFunction("on_change") { call in
            hooks.append(try call.function(1))
            return 0
        })
        try lua.execute("for i = 1, 100 do on_change(function() return i end) end")
        hooks.removeAll()
        lua.collectGarbage()
        let baselineMemory = lua.memoryInUse
        #expect(lua.liveReferenceCount == 0)

        for round in 0..<10_000 {
            try lua.execute("on_change(function() return \(round % 7) end)", chunkName: "=r")
            let hook = hooks.removeLast()
            #expect(try hook.call() == .integer(round % 7))
            hook.release()
        }
        lua.collectGarbage()
        #expect(lua.liveReferenceCount == 0)
        // Chunks compiled above are garbage now; what stays is bounded by the registry's free list.
        #expect(lua.memoryInUse < baselineMemory + 64 * 1024)
    }

    @Test func refsCannotOutliveTheState() throws {
        var lua: LuaState? = try LuaState()
        let function = try #require(try lua?.load("return 1", chunkName: "=f"))
        #expect(try function.call() == 1)
        lua = nil
        #expect(!function.isValid)
        let error = try #require(throws: LuaError.self) { try function.call() }
        #expect(error.kind == .stateClosed)
    }

    @Test func closingRunsFinalizersOfSwiftBoxes() throws {
        final class Tracker { nonisolated(unsafe) static var alive = 0; init() { Tracker.alive += 1 }; deinit { Tracker.alive -= 1 } }
        do {
            let lua = try LuaState()
            let tracker = Tracker()
            lua.setGlobal("touch", function: LuaFunction("touch") { (_: LuaValue) in _ = tracker })
            try lua.execute("touch(1)")
            #expect(Tracker.alive == 1)
            try lua.close()
        }
        #expect(Tracker.alive == 0)
    }
}
