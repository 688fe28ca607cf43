public import JSONValues
import Foundation
public import LuaBridge

/// Script values: what the `state` module stores and what crosses from Lua to Swift as data — nil,
/// booleans, integers, floats, strings, arrays and string-keyed tables, which are JSON's values.
extension JSONValue {
    /// The value of a Lua value; functions, userdata, byte strings that are not UTF-8 and tables with
    /// keys other than strings (or a sequence) have none.
    public init(lua value: LuaValue) throws {
        switch value {
        case .nil: self = .null
        case .boolean(let flag): self = .bool(flag)
        case .integer(let number): self = .int(number)
        case .number(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .table(let table):
            if table.fields.isEmpty && !table.array.isEmpty {
                self = .array(try table.array.map(JSONValue.init(lua:)))
            } else if table.array.isEmpty {
                var object: [String: JSONValue] = [:]
                for (key, field) in table.fields {
                    guard let name = key.stringValue else {
                        throw LuaScriptError("only tables with string keys or sequences can be stored, not one with a \(key.typeName) key")
                    }
                    object[name] = try JSONValue(lua: field)
                }
                self = .object(object)
            } else {
                throw LuaScriptError("a table mixing a sequence and other keys cannot be stored; use one or the other")
            }
        case .bytes: throw LuaScriptError("a string that is not UTF-8 cannot be stored; encode it first (crypto.base64_encode)")
        case .function, .object, .opaque: throw LuaScriptError("a \(value.typeName) cannot be stored; only plain data can")
        }
    }


    /// The Lua value.
    package var luaValue: LuaValue {
        switch self {
        case .null: return .nil
        case .bool(let flag): return .boolean(flag)
        case .int(let number): return .integer(number)
        case .double(let number): return .number(number)
        case .string(let text): return .string(text)
        case .array(let values): return .array(values.map(\.luaValue))
        case .object(let fields): return .dictionary(fields.mapValues(\.luaValue))
        }
    }

    /// A value of Swift state declared outside Lua: scalars directly, other `Encodable` values as a round
    /// trip through JSON would give them (see ``JSONValueEncoder``), without the JSON.
    package init(swift value: any Sendable) throws {
        switch value {
        case let script as JSONValue: self = script
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .int(number)
        case let number as Double: self = .double(number)
        case let text as String: self = .string(text)
        case Optional<any Sendable>.none: self = .null
        case let encodable as any Encodable:
            self = try JSONValueEncoder().encode(encodable)
        default:
            throw LuaScriptError("a \(type(of: value)) cannot be seen from Lua")
        }
    }
}
