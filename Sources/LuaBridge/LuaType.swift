import CLua

/// The type of a Lua value as the C API reports it (`lua_type`), for checks that need no string.
public enum LuaType: Int32, Sendable {
    /// No value: the index lies past the top of the stack.
    case none = -1
    case `nil` = 0
    case boolean = 1
    case lightUserdata = 2
    case number = 3
    case string = 4
    case table = 5
    case function = 6
    case userdata = 7
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
