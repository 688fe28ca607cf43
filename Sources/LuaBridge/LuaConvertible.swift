/// A Swift type that can be read from a Lua stack slot, for typed arguments and results.
///
/// Conformers see the stack through a ``LuaStackView``, which offers no operation that can raise a Lua
/// error through a Swift frame.
public protocol LuaReadable {
    /// The Lua type name used in error messages (`number expected, got table`).
    static var luaTypeName: String { get }
    /// Reads the value at `index`, or returns `nil` when it has another type.
    static func luaRead(from stack: LuaStackView, at index: Int32) -> Self?
}

/// A Swift type that can be pushed onto a Lua stack.
public protocol LuaPushable {
    /// Pushes the value, exactly one slot.
    func luaPush(onto stack: LuaStackView)
}

extension Int: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "number" }
    @inlinable public static func luaRead(from stack: LuaStackView, at index: Int32) -> Int? {
        stack.integer(at: index)
    }
    @inlinable public func luaPush(onto stack: LuaStackView) { stack.push(self) }
}

extension Double: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "number" }
    @inlinable public static func luaRead(from stack: LuaStackView, at index: Int32) -> Double? {
        stack.number(at: index)
    }
    @inlinable public func luaPush(onto stack: LuaStackView) { stack.push(self) }
}

extension Bool: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "boolean" }
    @inlinable public static func luaRead(from stack: LuaStackView, at index: Int32) -> Bool? {
        stack.boolean(at: index)
    }
    @inlinable public func luaPush(onto stack: LuaStackView) { stack.push(self) }
}

extension String: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "string" }
    /// Strings and numbers read as strings, as in `luaL_checkstring`; invalid UTF-8 is repaired.
    public static func luaRead(from stack: LuaStackView, at index: Int32) -> String? {
        stack.string(at: index)
    }
    public func luaPush(onto stack: LuaStackView) { stack.push(self) }
}

extension LuaValue: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "value" }
    /// Any value reads; a table nested too deeply reads as `nil`.
    public static func luaRead(from stack: LuaStackView, at index: Int32) -> LuaValue? {
        stack.value(at: index)
    }
    /// Pushes the value; one that cannot be pushed (a released reference inside it) pushes `nil`.
    public func luaPush(onto stack: LuaStackView) {
        do { try stack.push(self) } catch { stack.pushNil() }
    }
}

extension Optional: LuaReadable where Wrapped: LuaReadable {
    public static var luaTypeName: String { Wrapped.luaTypeName }
    /// `nil` and a missing argument read as `.some(nil)`; any other value must be a `Wrapped`.
    public static func luaRead(from stack: LuaStackView, at index: Int32) -> Wrapped?? {
        if stack.isNil(at: index) { return .some(nil) }
        return Wrapped.luaRead(from: stack, at: index).map { .some($0) }
    }
}

extension Optional: LuaPushable where Wrapped: LuaPushable {
    public func luaPush(onto stack: LuaStackView) {
        if let value = self { value.luaPush(onto: stack) } else { stack.pushNil() }
    }
}
