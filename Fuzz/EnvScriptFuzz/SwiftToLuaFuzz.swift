import Foundation
import LuaBridge

/// Swift values into Lua and back: `setGlobal` then `global`.
///
/// The values built here are the canonical form the reader produces (no float key with an integral
/// value, no integer key that belongs to the sequence, no NaN, byte strings only when not UTF-8), so
/// each must come back equal. Tables nested deeper than the bridge's limit must be refused with an
/// error; a value too big for the memory limit must fail with an error, never abort.
enum SwiftToLuaFuzz {
    static func run(_ data: Data) {
        var input = FuzzInput(data)
        let value = makeValue(&input, depth: 0)
        let lua = makeFuzzState()
        defer { try? lua.close() }
        do {
            try lua.setGlobal("v", value)
        } catch let error as LuaError {
            if LuaShape.depth(value) > 100 || error.kind == .memoryLimit { return }
            fuzzFailure("pushing a value failed: \(error)")
        } catch {
            fuzzFailure("pushing a value failed with a foreign error: \(error)")
        }
        guard LuaShape.depth(value) <= 100 else { fuzzFailure("a table nested \(LuaShape.depth(value)) deep was pushed") }
        let read: LuaValue
        do {
            read = try lua.global("v")
        } catch {
            fuzzFailure("reading back a value failed: \(error)")
        }
        guard read == value else { fuzzFailure("\(value) came back as \(read)") }
    }

    private static func makeValue(_ input: inout FuzzInput, depth: Int) -> LuaValue {
        switch input.choice(depth > 130 || input.isExhausted ? 7 : 9) {
        case 0: return .nil
        case 1: return .boolean(input.byte() & 1 == 1)
        case 2: return .integer(Int(truncatingIfNeeded: input.uint64()))
        case 3:
            let number = Double(bitPattern: input.uint64())
            return .number(number.isNaN ? 0.5 : number)
        case 4, 5, 6: return text(input.bytes(upTo: 40))
        default: return .table(makeTable(&input, depth: depth))
        }
    }

    private static func makeTable(_ input: inout FuzzInput, depth: Int) -> LuaTable {
        var table = LuaTable()
        for _ in 0..<input.choice(6) {
            let element = makeValue(&input, depth: depth + 1)
            if element != .nil { table.array.append(element) }
        }
        for _ in 0..<input.choice(6) {
            let key = makeKey(&input, depth: depth, sequence: table.array.count)
            let element = makeValue(&input, depth: depth + 1)
            if let key, element != .nil { table.fields[key] = element }
        }
        return table
    }

    private static func makeKey(_ input: inout FuzzInput, depth: Int, sequence: Int) -> LuaValue? {
        let key = makeValue(&input, depth: depth + 1)
        switch key {
        case .nil: return nil
        case .integer(let number) where (1...sequence + 1).contains(number): return nil
        case .number(let number) where number.rounded() == number && Double(Int.min) <= number && number < Double(Int.max):
            return nil
        default: return key
        }
    }

    private static func text(_ bytes: [UInt8]) -> LuaValue {
        if let string = String(validating: bytes, as: UTF8.self) { return .string(string) }
        return .bytes(bytes)
    }
}
