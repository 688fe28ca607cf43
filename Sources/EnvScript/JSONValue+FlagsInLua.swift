import LuaBridge
import Tweaks

extension JSONValue {
    /// The Lua type of ``luaValue``.
    var luaType: LuaType {
        switch self {
        case .null: return .nil
        case .bool: return .boolean
        case .int, .double: return .number
        case .string: return .string
        case .array, .object: return .table
        }
    }

    /// Pushes ``luaValue``; a scalar is pushed as it is, with no ``LuaValue`` made on the way.
    func push(onto stack: LuaStackView) throws {
        switch self {
        case .null: stack.pushNil()
        case .bool(let value): stack.push(value)
        case .int(let value): stack.push(value)
        case .double(let value): stack.push(value)
        case .string(let value): stack.push(value)
        case .array, .object: try stack.push(luaValue)
        }
    }

    /// The tweak value of argument `position` of `call`; what cannot be one is an argument error.
    init(argument position: Int32, of call: LuaCall) throws {
        do {
            self = try JSONValue(flagValue: try call.value(position))
        } catch {
            throw call.argumentError(position, "\(error)")
        }
    }

    /// The tweak value of a Lua value: a boolean, a number, a UTF-8 string, or a table of those — a
    /// sequence for an array, string keys for an object (an empty table is an empty object).
    ///
    /// - Throws: ``LuaScriptError`` saying what cannot be a tweak value (nil, a function, a table with
    ///   other keys…).
    init(flagValue value: LuaValue) throws {
        switch value {
        case .boolean(let flag): self = .bool(flag)
        case .integer(let number): self = .int(number)
        case .number(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .table:
            let converted = try JSONValue(lua: value)
            guard !converted.containsNull else {
                throw LuaScriptError("nil is not a tweak value; leave the field out instead")
            }
            self = converted
        case .nil:
            throw LuaScriptError("nil is not a tweak value; give a boolean, a number, a string or a table of those")
        case .bytes, .function, .object, .opaque:
            throw LuaScriptError("a \(value.typeName) is not a tweak value; give a boolean, a number, a string or a table of those")
        }
    }

}

extension Tweak {
    /// The Lua table of a tweak: `feature, variable, value, source, reason, title, description, group,
    /// encrypted, sealed`, and `variant` and `metadata` when its provider gives them.
    var luaTable: LuaValue {
        var table = LuaTable()
        table["feature"] = .string(feature)
        table["variable"] = .string(variable)
        table["value"] = value.luaValue
        table["source"] = .string(source)
        table["encrypted"] = .boolean(isEncrypted)
        table["sealed"] = .boolean(isSealed)
        if let title { table["title"] = .string(title) }
        if let description { table["description"] = .string(description) }
        if let group { table["group"] = .string(group) }
        table["reason"] = .string(reason.rawValue)
        if let variant { table["variant"] = .string(variant) }
        if !metadata.isEmpty { table["metadata"] = JSONValue.object(metadata).luaValue }
        return .table(table)
    }
}
