import LuaBridge

/// Compares Lua values as Swift reads them, by shape: functions, coroutines and userdata compare by kind
/// (each read makes a new reference), tables by content.
enum LuaShape {
    static func same(_ a: LuaValue, _ b: LuaValue) -> Bool {
        switch (a, b) {
        case (.function, .function), (.opaque, .opaque): return true
        case (.number(let x), .number(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.table(let x), .table(let y)):
            guard x.array.count == y.array.count, x.fields.count == y.fields.count else { return false }
            guard zip(x.array, y.array).allSatisfy(same) else { return false }
            for (key, value) in x.fields where isPlain(key) {
                guard let other = y.fields[key], same(value, other) else { return false }
            }
            return true
        default: return a == b
        }
    }

    /// Whether the value holds no reference, so that it is found again as a dictionary key.
    static func isPlain(_ value: LuaValue) -> Bool {
        switch value {
        case .function, .opaque, .object: return false
        case .number(let number): return !number.isNaN
        case .table(let table): return table.array.allSatisfy(isPlain) && table.fields.allSatisfy { isPlain($0.key) && isPlain($0.value) }
        default: return true
        }
    }

    /// How deep tables nest in `value` (0 for a value that is not a table).
    static func depth(_ value: LuaValue) -> Int {
        guard case .table(let table) = value else { return 0 }
        let inner = (table.array + table.fields.keys + table.fields.values).map(depth).max() ?? 0
        return inner + 1
    }
}

/// A Lua state for one fuzz input: the sandbox as scripts get it, with a small memory limit so that the
/// limit is reached by inputs a fuzzer can write.
func makeFuzzState() -> LuaState {
    do {
        return try LuaState(options: LuaOptions(memoryLimit: 256 << 10, instructionLimit: 1_000_000))
    } catch {
        fuzzFailure("a Lua state cannot be made: \(error)")
    }
}
