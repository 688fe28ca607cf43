public import CLua

/// The type of a Lua value as the C API reports it (`lua_type`), for checks that need no string.
public enum LuaType: Int32, Sendable {
    /// No value: the index lies past the top of the stack.
    case none = -1
    /// `nil`.
    case `nil` = 0
    /// `true` or `false`.
    case boolean = 1
    /// A C pointer.
    case lightUserdata = 2
    /// An integer or a float.
    case number = 3
    /// A string (any bytes).
    case string = 4
    /// A table.
    case table = 5
    /// A Lua or C function.
    case function = 6
    /// A full userdata, such as a Swift object.
    case userdata = 7
    /// A coroutine.
    case thread = 8

    /// The name `type()` reports (`no value` for ``none``).
    public var name: String {
        switch self {
        case .none: "no value"
        case .nil: "nil"
        case .boolean: "boolean"
        case .lightUserdata, .userdata: "userdata"
        case .number: "number"
        case .string: "string"
        case .table: "table"
        case .function: "function"
        case .thread: "thread"
        }
    }
}

extension LuaStackView {
    /// The type of the value at `index`; ``LuaType/none`` past the top.
    @inlinable public func type(at index: Int32) -> LuaType {
        LuaType(rawValue: lua_type(thread, index)) ?? .none
    }
}
