import Foundation
import LuaBridge

/// Lua values into Swift: a small program built from the input makes tables (cycles, holes, metatables
/// whose metamethods raise, functions, coroutines, byte strings, deep nesting, tables as keys) and returns
/// one. The program sets fields with `rawset`, so only the reader could run a metamethod.
///
/// Invariants: reading never runs a metamethod and never crashes; a refusal is a ``LuaError``; what was
/// read goes back into Lua and reads again as the same shape (or is refused for the memory it would take).
enum LuaToSwiftFuzz {
    static func run(_ data: Data) {
        var input = FuzzInput(data)
        var program = "local p = {{}, {}, {}, {}}\nlocal function raise() error('a metamethod ran') end\n"
        while !input.isExhausted {
            program += statement(&input) + "\n"
        }
        program += "return p[1], p[2]\n"

        let lua = makeFuzzState()
        defer { try? lua.close() }
        let values: [LuaValue]
        do {
            values = try lua.execute(program, chunkName: "=fuzz")
        } catch let error as LuaError {
            if error.message.contains("a metamethod ran") { fuzzFailure("reading ran a metamethod: \(error)") }
            return
        } catch {
            fuzzFailure("a foreign error: \(error)")
        }
        for value in values {
            do {
                try lua.setGlobal("v", value)
                let again = try lua.global("v")
                guard LuaShape.same(value, again) else { fuzzFailure("\(value) came back as \(again)") }
            } catch let error as LuaError where error.kind == .memoryLimit {
                continue
            } catch let error as LuaError where error.message.hasPrefix("the table stands for more than") {
                // The bound on what a read stands for is a share of the memory left under the cap, and
                // the copy just written back took some: the second read may meet a lower bound.
                continue
            } catch {
                fuzzFailure("a value read from Lua does not go back: \(error)")
            }
        }
    }

    private static func statement(_ input: inout FuzzInput) -> String {
        let table = "p[\(input.choice(4) + 1)]"
        switch input.choice(11) {
        case 0: return "rawset(\(table), \(key(&input)), \(value(&input)))"
        case 1: return "rawset(\(table), \(key(&input)), p[\(input.choice(4) + 1)])"
        case 2:
            return "setmetatable(\(table), {__index = raise, __newindex = raise, __len = raise, __pairs = raise, __eq = raise, __name = 'Fuzz'})"
        case 3: return "rawset(\(table), \(key(&input)), function() return 1 end)"
        case 4: return "rawset(\(table), \(key(&input)), coroutine.create(function() end))"
        case 5: return "\(table) = {\(table)}"
        case 6: return "for i = 1, \(input.choice(40)) do rawset(\(table), i, i) end"
        case 7: return "rawset(\(table), \(key(&input)), nil)"
        case 8: return "do local x = {} for i = 1, \(input.choice(160)) do x = {x} end rawset(\(table), \(key(&input)), x) end"
        case 9: return "rawset(\(table), p[\(input.choice(4) + 1)], \(value(&input)))"
        default: return "rawset(\(table), \(key(&input)), string.rep(\(byteString(&input)), \(input.choice(2000))))"
        }
    }

    private static func key(_ input: inout FuzzInput) -> String {
        switch input.choice(8) {
        case 0: return "\(Int(input.choice(12)) - 2)"
        case 1: return "\(Int64(bitPattern: input.uint64()))"
        case 2: return ["1.5", "2.0", "-0.0", "1/0", "-1/0", "2^53", "2^63", "math.mininteger"][input.choice(8)]
        case 3: return byteString(&input)
        case 4: return "true"
        case 5: return "p[\(input.choice(4) + 1)]"
        default: return "\(input.choice(8) + 1)"
        }
    }

    private static func value(_ input: inout FuzzInput) -> String {
        switch input.choice(6) {
        case 0: return "false"
        case 1: return "\(Int64(bitPattern: input.uint64()))"
        case 2:
            let number = Double(bitPattern: input.uint64())
            return number.isFinite ? "(\(number))" : "0/0"
        case 3: return "{}"
        default: return byteString(&input)
        }
    }

    /// A Lua string literal of arbitrary bytes, every byte escaped.
    private static func byteString(_ input: inout FuzzInput) -> String {
        "\"" + input.bytes(upTo: 12).map { "\\\($0)" }.joined() + "\""
    }
}
