import Foundation
import LuaBridge
import Testing

/// References dropped on any thread and Swift objects let go of by Lua's finalizers are released at
/// the next entry into Lua, never on a random thread inside the state or inside a `lua_*` call (issue
/// "The runtime under threads", items 2 and 3).
@Suite struct ReleaseAcrossThreadsTests {
    /// Batches of references handed over to other threads, each taken (and then dropped) by one.
    final class Handover: @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [[LuaFunctionRef]]
        init(_ batches: [[LuaFunctionRef]]) { self.batches = batches }
        func take(_ index: Int) -> [LuaFunctionRef] {
            lock.withLock {
                defer { batches[index] = [] }
                return batches[index]
            }
        }
    }

    @Test func referencesDroppedOnEightThreadsWhileLuaRunsAreAllReleased() throws {
        let lua = try LuaState()
        let perThread = 2_000
        var batches: [[LuaFunctionRef]] = []
        for batch in 0..<8 {
            batches.append(try (0..<perThread).map { index in
                try lua.load("return \(batch * perThread + index)", chunkName: "=r")
            })
        }
        #expect(lua.liveReferenceCount == 8 * perThread)
        let handed = Handover(batches)
        batches.removeAll()
        let group = DispatchGroup()
        for batch in 0..<8 {
            DispatchQueue.global().async(group: group) {
                var mine = handed.take(batch)
                while !mine.isEmpty { mine.removeLast() } // each deinit releases its reference here
            }
        }
        // Meanwhile the owner keeps using the state, as a host does under its lock.
        var sum = 0
        while group.wait(timeout: .now()) == .timedOut {
            sum += try lua.execute("local t = {} for i = 1, 100 do t[i] = i end return #t").first?.intValue ?? 0
        }
        try lua.execute("return 1")
        #expect(lua.liveReferenceCount == 0)
        #expect(sum >= 0)
        // The registry slots were freed under the owner's use: new references reuse them and work.
        let again = try (0..<1_000).map { try lua.load("return \($0)", chunkName: "=again") }
        #expect(try again[999].call() == .integer(999))
    }

    /// A Swift object whose deinit notes whether a call into Lua is in progress.
    final class Witness: @unchecked Sendable {
        nonisolated(unsafe) static var insideLua = false
        nonisolated(unsafe) static var releasedInsideLua = 0
        nonisolated(unsafe) static var released = 0
        deinit {
            Self.released += 1
            if Self.insideLua { Self.releasedInsideLua += 1 }
        }
    }

    @Test func objectsCollectedByLuaAreReleasedOutsideLuaCalls() throws {
        let lua = try LuaState()
        lua.setGlobal("make", function: LuaFunction("make") { call in
            call.push(LuaValue.object(LuaObject(Witness(), typeName: "witness")))
            return 1
        })
        // Lua sets insideLua while it runs, so a deinit run by a collection step inside it is seen.
        lua.setGlobal("enter", function: LuaFunction("enter") { _ in Witness.insideLua = true; return 0 })
        lua.setGlobal("leave", function: LuaFunction("leave") { _ in Witness.insideLua = false; return 0 })
        try lua.execute("""
            enter()
            for i = 1, 2000 do local w = make() end
            collectgarbage()
            for i = 1, 2000 do local t = { i, tostring(i) } end
            leave()
            """)
        #expect(Witness.releasedInsideLua == 0, "a deinit ran inside a call into Lua")
        try lua.execute("return 1") // the next entry releases what the collector let go of
        #expect(Witness.released == 2000)
    }
}
