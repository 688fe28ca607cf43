import LuaBridge
import Testing

/// A value read from Lua reads each table once: a subtable shared a few times reads as its copies, a
/// table that repeats subtables into millions of values is refused at once, and a cycle is refused.
@Suite struct SharedSubtableTests {
    /// `t = {t, t}` twenty-three times over: a few kilobytes in Lua, 16 million values written out.
    static let doubling = "local t = {1}; for i = 1, 23 do t = {t, t} end; return t"

    @Test(arguments: [32 << 20, nil] as [Int?])
    func aTableThatDoublesItsSubtablesIsRefusedQuickly(_ memoryLimit: Int?) throws {
        let lua = try LuaState(options: LuaOptions(memoryLimit: memoryLimit, instructionLimit: nil))
        let clock = ContinuousClock()
        let started = clock.now
        #expect {
            _ = try lua.execute(Self.doubling)
        } throws: { error in
            "\(error)".contains("counting each repeated subtable every time it appears")
        }
        // Reading each table once, the refusal comes after a few million counted values, not 16 million
        // walked: well under a second even in a debug build (walking them took 10–26 s and 3 GB).
        #expect(started.duration(to: clock.now) < .seconds(5))
    }

    @Test func aSubtableSharedAFewTimesReadsAsItsCopies() throws {
        let lua = try LuaState()
        let value = try lua.execute("local shared = {x = 1, list = {1, 2}}; return {a = shared, b = shared, c = {shared}}").first
        let shared: LuaValue = ["x": 1, "list": [1, 2]]
        #expect(value == ["a": shared, "b": shared, "c": [shared]])
    }

    /// Found by the lua-to-swift fuzzer (Fuzz/regressions/lua-to-swift): the bound is a share of the
    /// memory left under the cap, so a value read, written back (each shared subtable as a copy of its
    /// own) and read again may meet a lower bound the second time. That second read is refused with the
    /// bound's error, or the write with the memory limit; it never reads another shape.
    @Test func aValueWrittenBackNearTheCapReadsTheSameOrIsRefusedForItsSize() throws {
        let lua = try LuaState(options: LuaOptions(memoryLimit: 256 << 10, instructionLimit: nil))
        let value = try #require(try lua.execute(
            "local shared = {} for i = 1, 100 do shared[i] = i end local t = {} for i = 1, 100 do t[i] = shared end return t").first)
        do {
            try lua.setGlobal("v", value)
        } catch let error as LuaError {
            #expect(error.kind == .memoryLimit, "\(error)")
            return
        }
        do {
            #expect(try lua.global("v") == value)
        } catch let error as LuaError {
            #expect(error.message.hasPrefix("the table stands for more than"), "\(error)")
        }
    }

    @Test func aTableThatContainsItselfIsRefused() throws {
        let lua = try LuaState()
        #expect {
            _ = try lua.execute("local t = {}; t.again = {t}; return t")
        } throws: { error in
            "\(error)".contains("the table contains itself")
        }
    }

    /// The bound follows the memory the state may still take: under a 4 MiB cap a table that stands
    /// for a million values is refused, though it is a few kilobytes in Lua.
    @Test func theBoundFollowsTheMemoryCap() throws {
        let source = "local t = {1}; for i = 1, 19 do t = {t, t} end; return t"
        let capped = try LuaState(options: LuaOptions(memoryLimit: 4 << 20, instructionLimit: nil))
        #expect(throws: LuaError.self) { _ = try capped.execute(source) }
        let uncapped = try LuaState(options: LuaOptions(memoryLimit: nil, instructionLimit: nil))
        guard case .table(let table) = try uncapped.execute(source).first else {
            Issue.record("no table read")
            return
        }
        #expect(table.array.count == 2)
    }

    /// The review's follow-ups: a long string repeated counts its bytes each time, and a table read
    /// once and met again deeper keeps to the depth limit from its new place.
    @Test func aRepeatedLongStringAndADeepReuseAreRefused() throws {
        let lua = try LuaState(options: LuaOptions(memoryLimit: nil, instructionLimit: nil))
        #expect {
            _ = try lua.execute("local s = string.rep('x', 8 << 20); local t = {}; for i = 1, 100000 do t[i] = s end; return t")
        } throws: { error in
            "\(error)".contains("a value for every 16 bytes of a string")
        }
        // One long string once is fine.
        #expect(try lua.execute("return {string.rep('x', 8 << 20)}").count == 1)
        // Chains of 60 tables, the second ending in the first: 120 levels once read out.
        #expect {
            _ = try lua.execute("""
                local function chain(n, tail) local t = {tail} for i = 1, n do t = {t} end return t end
                local first = chain(60)
                return {first, chain(60, first)}
                """)
        } throws: { error in
            "\(error)".contains("levels deep")
        }
    }
}
