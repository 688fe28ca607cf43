/// A Lua value as Swift sees it.
///
/// Integers and floats stay distinct (`3` and `3.0` are different values in Lua 5.4). Strings that are
/// valid UTF-8 read as ``string(_:)`` (embedded zero bytes included); any other byte string reads as
/// ``bytes(_:)``. Functions, coroutines and foreign userdata are kept as registry references.
public enum LuaValue: Hashable {
    /// Lua's `nil`.
    case `nil`
    /// A boolean.
    case boolean(Bool)
    /// A Lua integer.
    case integer(Int)
    /// A Lua float.
    case number(Double)
    /// A Lua string that is valid UTF-8.
    case string(String)
    /// A Lua string that is not valid UTF-8.
    case bytes([UInt8])
    /// A table, copied: its sequence part and its other fields.
    case table(LuaTable)
    /// A Lua function, kept alive by a registry reference.
    case function(LuaFunctionRef)
    /// A Swift object pushed as userdata with the metatable of its `LuaObjectType`.
    case object(LuaObject)
    /// A coroutine or a userdata that Swift did not create, kept by reference so it can go back to Lua.
    case opaque(LuaRef)

    /// The Lua type name, as `type()` reports it.
    public var typeName: String {
        switch self {
        case .nil: "nil"
        case .boolean: "boolean"
        case .integer, .number: "number"
        case .string, .bytes: "string"
        case .table: "table"
        case .function: "function"
        case .object: "userdata"
        case .opaque(let ref): ref.typeName
        }
    }

    /// Lua truthiness: everything but `nil` and `false` is true.
    package var isTruthy: Bool {
        switch self {
        case .nil, .boolean(false): false
        default: true
        }
    }

    /// An array (a table with the keys `1...n`).
    public static func array(_ elements: [LuaValue]) -> LuaValue { .table(LuaTable(array: elements)) }

    /// A table with string keys.
    public static func dictionary(_ fields: [String: LuaValue]) -> LuaValue {
        var table = LuaTable()
        for (key, value) in fields { table.fields[.string(key)] = value }
        return .table(table)
    }

    /// The integer, or `nil` for any other kind (a float is not an integer here).
    public var intValue: Int? { if case .integer(let value) = self { value } else { nil } }
    /// The number as a `Double`, for integers and floats alike.
    package var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
    /// The string, when it is valid UTF-8.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The boolean, or `nil` for any other kind (no truthiness).
    package var boolValue: Bool? { if case .boolean(let value) = self { value } else { nil } }
    /// The table, or `nil` for any other kind.
    package var tableValue: LuaTable? { if case .table(let value) = self { value } else { nil } }
    /// The field `key` of a table value, or `nil`.
    public subscript(key: String) -> LuaValue {
        tableValue?.fields[.string(key)] ?? .nil
    }
}

extension LuaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .nil }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: LuaValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, LuaValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// A Lua table: its sequence `1...n` and its other fields.
///
/// Reading a table from Lua puts the keys `1...n` (up to the first hole) in ``array`` and every other key
/// in ``fields``, so mixed tables such as `{1, 2, x = 3}` round-trip.
public struct LuaTable: Hashable {
    /// Values of the keys `1...array.count`.
    public var array: [LuaValue]
    /// Every other key. Keys are never `nil` or NaN.
    public var fields: [LuaValue: LuaValue]

    /// A table with the given sequence and fields.
    public init(array: [LuaValue] = [], fields: [LuaValue: LuaValue] = [:]) {
        self.array = array
        self.fields = fields
    }

    /// Whether the table has no entries.
    public var isEmpty: Bool { array.isEmpty && fields.isEmpty }

    /// The value of a string key.
    public subscript(key: String) -> LuaValue {
        get { fields[.string(key)] ?? .nil }
        set { fields[.string(key)] = newValue == .nil ? nil : newValue }
    }
}
