import LuaBridge
import Tweaks

extension TweakValue {
    /// The Lua value: booleans, integers, floats and strings keep their kinds.
    var luaValue: LuaValue {
        switch self {
        case .bool(let value): return .boolean(value)
        case .int(let value): return .integer(value)
        case .double(let value): return .number(value)
        case .string(let value): return .string(value)
        }
    }

    /// The tweak value of a Lua value, or nil for anything but a boolean, a number or a UTF-8 string.
    init?(lua value: LuaValue) {
        switch value {
        case .boolean(let flag): self = .bool(flag)
        case .integer(let number): self = .int(number)
        case .number(let number): self = .double(number)
        case .string(let text): self = .string(text)
        default: return nil
        }
    }
}

extension Tweak {
    /// The Lua table of a tweak: `feature, variable, value, source, title, description, group, encrypted`.
    var luaTable: LuaValue {
        var table = LuaTable()
        table["feature"] = .string(feature)
        table["variable"] = .string(variable)
        table["value"] = value.luaValue
        table["source"] = .string(source)
        table["encrypted"] = .boolean(isEncrypted)
        if let title { table["title"] = .string(title) }
        if let description { table["description"] = .string(description) }
        if let group { table["group"] = .string(group) }
        return .table(table)
    }
}
