import Foundation
public import LuaBridge

/// A Lua value as it is stored by the `state` module: nil, booleans, integers, floats, strings,
/// arrays and string-keyed tables — what can live in a preferences file or a JSON file.
///
/// Integers and floats stay distinct on disk too: a float with an integral value (such as `2.0`) is
/// written `{"$float": "2.0"}`, since JSON and property lists would otherwise read it back as `2`.
public enum ScriptValue: Sendable, Hashable {
    /// Lua's `nil`.
    case null
    /// A boolean.
    case bool(Bool)
    /// A Lua integer.
    case int(Int)
    /// A Lua float, kept apart from integers even when its value is integral.
    case double(Double)
    /// A UTF-8 string.
    case string(String)
    /// A table with the keys 1...n.
    case array([ScriptValue])
    /// A table with string keys.
    case object([String: ScriptValue])

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
                self = .array(try table.array.map(ScriptValue.init(lua:)))
            } else if table.array.isEmpty {
                var object: [String: ScriptValue] = [:]
                for (key, field) in table.fields {
                    guard let name = key.stringValue else {
                        throw LuaScriptError("only tables with string keys or sequences can be stored, not one with a \(key.typeName) key")
                    }
                    object[name] = try ScriptValue(lua: field)
                }
                self = .object(object)
            } else {
                throw LuaScriptError("a table mixing a sequence and other keys cannot be stored; use one or the other")
            }
        case .bytes: throw LuaScriptError("a string that is not UTF-8 cannot be stored; encode it first (crypto.base64_encode)")
        case .function, .object, .opaque: throw LuaScriptError("a \(value.typeName) cannot be stored; only plain data can")
        }
    }

    /// The text of a string value, else nil.
    public var stringValue: String? { if case .string(let text) = self { text } else { nil } }

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
    /// trip through JSON would give them (see ``ScriptValueEncoder``), without the JSON.
    package init(swift value: any Sendable) throws {
        switch value {
        case let script as ScriptValue: self = script
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .int(number)
        case let number as Double: self = .double(number)
        case let text as String: self = .string(text)
        case Optional<any Sendable>.none: self = .null
        case let encodable as any Encodable:
            self = try ScriptValueEncoder().encode(encodable)
        default:
            throw LuaScriptError("a \(type(of: value)) cannot be seen from Lua")
        }
    }
}

extension ScriptValue {
    /// The one key of the table that stands for a float with an integral value (or not finite).
    package static let floatMarker = "$float"

    /// Whether `number` is written as `{"$float": "..."}`: it would read back as an integer otherwise.
    package static func needsFloatMarker(_ number: Double) -> Bool {
        !number.isFinite || number == number.rounded()
    }
}

extension ScriptValue: Codable {
    private struct FloatKey: CodingKey {
        var stringValue: String { ScriptValue.floatMarker }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { if stringValue != ScriptValue.floatMarker { return nil } }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: FloatKey.self), keyed.allKeys.count == 1,
           let text = try? keyed.decode(String.self, forKey: FloatKey()), let number = Double(text)
        {
            self = .double(number)
            return
        }
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let flag = try? single.decode(Bool.self) { self = .bool(flag); return }
            if let number = try? single.decode(Int.self) { self = .int(number); return }
            if let number = try? single.decode(Double.self) { self = .double(number); return }
            if let text = try? single.decode(String.self) { self = .string(text); return }
            if let values = try? single.decode([ScriptValue].self) { self = .array(values); return }
            if let fields = try? single.decode([String: ScriptValue].self) { self = .object(fields); return }
        }
        throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a value the state module stores"))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .double(let number) where Self.needsFloatMarker(number):
            var keyed = encoder.container(keyedBy: FloatKey.self)
            try keyed.encode("\(number)", forKey: FloatKey())
        default:
            var single = encoder.singleValueContainer()
            switch self {
            case .null: try single.encodeNil()
            case .bool(let flag): try single.encode(flag)
            case .int(let number): try single.encode(number)
            case .double(let number): try single.encode(number)
            case .string(let text): try single.encode(text)
            case .array(let values): try single.encode(values)
            case .object(let fields): try single.encode(fields)
            }
        }
    }
}
