import LuaBridge
import PropertyBased
import Testing
import TestSupport

/// Values go into Lua and come back unchanged, and Lua sees them with the right types.
@Suite struct ValueRoundTripTests {
    /// Sends a value through a Lua identity function and also asks Lua for its `math.type`/`type`.
    func roundTrip(_ value: LuaValue) throws -> (LuaValue, String) {
        let lua = try LuaState()
        let results = try lua.execute("local v = ...; return v, math.type(v) or type(v)", arguments: [value])
        return (results[0], results[1].stringValue ?? "?")
    }

    @Test func scalarsKeepTheirKinds() throws {
        #expect(try roundTrip(.nil) == (.nil, "nil"))
        #expect(try roundTrip(true) == (true, "boolean"))
        #expect(try roundTrip(false) == (false, "boolean"))
        #expect(try roundTrip(3) == (3, "integer"))
        #expect(try roundTrip(3.0) == (3.0, "float"))
        #expect(try roundTrip(.integer(.min)) == (.integer(.min), "integer"))
        #expect(try roundTrip(.integer(.max)) == (.integer(.max), "integer"))
        #expect(try roundTrip("héllo") == ("héllo", "string"))
    }

    @Test func integersAndFloatsStayDistinctComingFromLua() throws {
        let lua = try LuaState()
        #expect(try lua.execute("return 3, 3.0, 2^53, 7 // 2, 7 / 2") == [.integer(3), .number(3), .number(9007199254740992), .integer(3), .number(3.5)])
    }

    @Test func stringsWithZeroBytesAndInvalidUTF8() throws {
        #expect(try roundTrip("a\0b\0") == ("a\0b\0", "string"))
        let lua = try LuaState()
        #expect(try lua.execute("return #(...)", arguments: ["a\0b"]) == [3])
        #expect(try lua.execute("return '\\xff\\xfe'") == [.bytes([0xFF, 0xFE])])
        #expect(try roundTrip(.bytes([0, 0xC3, 0x28])) == (.bytes([0, 0xC3, 0x28]), "string"))
    }

    @Test func arraysDictionariesAndNestedTables() throws {
        let nested: LuaValue = ["name": "Debug", "tags": ["a", "b", 3], "inner": ["deep": ["x": 1.5]]]
        #expect(try roundTrip(nested).0 == nested)
        let lua = try LuaState()
        let counted = try lua.execute("local t = ...; return #t.tags, t.inner.deep.x, t.tags[3]", arguments: [nested])
        #expect(counted == [3, 1.5, 3])
    }

    @Test func mixedAndHoleyTablesFromLua() throws {
        let lua = try LuaState()
        let table = try #require(try lua.execute("return {10, 20, x = 'y', [5] = 50, [true] = 1}")[0].tableValue)
        #expect(table.array == [10, 20])
        #expect(table.fields == ["x": "y", 5: 50, true: 1])
    }

    @Test func cyclicTablesAreRefusedNotLoopedOver() throws {
        let lua = try LuaState()
        #expect(throws: LuaError.self) { try lua.execute("local t = {}; t.self = t; return t") }
    }

    @Test func functionsComeBackAsCallableRefs() throws {
        let lua = try LuaState()
        guard case .function(let double) = try lua.execute("return function(x) return x * 2 end")[0] else {
            Issue.record("expected a function")
            return
        }
        #expect(try double.call(21) == 42)
        let sum: Int = try double.call(5)
        #expect(sum == 10)
        // A ref passed back into Lua is the same function.
        #expect(try lua.execute("local f = ...; return f(4)", arguments: [.function(double)]) == [8])
    }

    @Test func swiftObjectsTravelAsUserdataWithMethods() throws {
        final class Counter { var count = 0 }
        let lua = try LuaState()
        lua.defineObjectType("Counter", methods: [
            "bump": LuaFunction("Counter:bump") { call in
                let counter = try call.object(1, as: Counter.self, typeName: "Counter")
                counter.count += try call.argument(2, as: Int.self)
                call.push(counter.count)
                return 1
            }
        ])
        let counter = Counter()
        let results = try lua.execute(
            "local c = ...; c:bump(2); return c:bump(3), type(c), c",
            arguments: [.object(LuaObject(counter, typeName: "Counter"))])
        #expect(results[0] == 5)
        #expect(results[1] == "userdata")
        #expect(results[2] == .object(LuaObject(counter, typeName: "Counter")))
        #expect(counter.count == 5)
        #expect(throws: LuaError.self) { try lua.execute("local c = ...; getmetatable(c).__index = nil", arguments: [.object(LuaObject(counter, typeName: "Counter"))]) }
    }

    @Test func propertyUnicodeStringsRoundTrip() async {
        await propertyCheck(count: 200, input: Gen.character(in: "\u{0}"..."\u{D7FF}").string(of: 0...40)) { text in
            let lua = try! LuaState()
            let results = try! lua.execute("local s = ...; return s, #s", arguments: [.string(text)])
            #expect(results[0] == .string(text))
            #expect(results[1] == .integer(text.utf8.count))
        }
    }

    @Test func propertyByteStringsRoundTrip() async {
        await propertyCheck(count: 200, input: Gen<UInt8>.value(in: 0...255).array(of: 0...40)) { bytes in
            let lua = try! LuaState()
            let back = try! lua.execute("local s = ...; return s .. ''", arguments: [.bytes(bytes)])[0]
            switch back {
            case .string(let text): #expect(Array(text.utf8) == bytes)
            case .bytes(let raw): #expect(raw == bytes)
            default: Issue.record("expected a string, got \(back)")
            }
        }
    }

    @Test func propertyIntegersRoundTripAndStayIntegers() async {
        await propertyCheck(count: 300, input: Gen.int()) { number in
            let lua = try! LuaState()
            let results = try! lua.execute("local n = ...; return n, math.type(n), n + 0", arguments: [.integer(number)])
            #expect(results == [.integer(number), "integer", .integer(number)])
        }
    }

    @Test func propertyDoublesRoundTripAndStayFloats() async {
        await propertyCheck(count: 300, input: Gen.double(in: -1e300...1e300)) { number in
            let lua = try! LuaState()
            let results = try! lua.execute("local n = ...; return n, math.type(n)", arguments: [.number(number)])
            #expect(results == [.number(number), "float"])
        }
    }
}
