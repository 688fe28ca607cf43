import CLua
import CLuaSupport

/// A Swift type that can be read from a Lua stack slot, for typed arguments and results.
public protocol LuaReadable {
    /// The Lua type name used in error messages (`number expected, got table`).
    static var luaTypeName: String { get }
    /// Reads the value at `index`, or returns `nil` when it has another type.
    static func luaRead(_ thread: OpaquePointer, at index: Int32) -> Self?
}

/// A Swift type that can be pushed onto a Lua stack.
public protocol LuaPushable {
    /// Pushes the value onto the stack of `thread`.
    func luaPush(_ thread: OpaquePointer)
}

extension Int: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "number" }
    @inlinable public static func luaRead(_ thread: OpaquePointer, at index: Int32) -> Int? {
        var isNumber: Int32 = 0
        let value = lua_tointegerx(thread, index, &isNumber)
        return isNumber != 0 ? Int(value) : nil
    }
    @inlinable public func luaPush(_ thread: OpaquePointer) { lua_pushinteger(thread, lua_Integer(self)) }
}

extension Double: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "number" }
    @inlinable public static func luaRead(_ thread: OpaquePointer, at index: Int32) -> Double? {
        var isNumber: Int32 = 0
        let value = lua_tonumberx(thread, index, &isNumber)
        return isNumber != 0 ? value : nil
    }
    @inlinable public func luaPush(_ thread: OpaquePointer) { lua_pushnumber(thread, self) }
}

extension Bool: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "boolean" }
    @inlinable public static func luaRead(_ thread: OpaquePointer, at index: Int32) -> Bool? {
        lua_type(thread, index) == LUA_TBOOLEAN ? lua_toboolean(thread, index) != 0 : nil
    }
    @inlinable public func luaPush(_ thread: OpaquePointer) { lua_pushboolean(thread, self ? 1 : 0) }
}

extension String: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "string" }
    /// Strings and numbers read as strings, as in `luaL_checkstring`; invalid UTF-8 is repaired.
    public static func luaRead(_ thread: OpaquePointer, at index: Int32) -> String? {
        let type = lua_type(thread, index)
        guard type == LUA_TSTRING || type == LUA_TNUMBER else { return nil }
        var length = 0
        guard let pointer = lua_tolstring(thread, index, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
    public func luaPush(_ thread: OpaquePointer) { LuaStateCore.pushString(self, onto: thread) }
}

extension LuaValue: LuaReadable, LuaPushable {
    public static var luaTypeName: String { "value" }
    /// Any value reads; a table nested too deeply reads as `nil`.
    public static func luaRead(_ thread: OpaquePointer, at index: Int32) -> LuaValue? {
        try? LuaStateCore.of(thread).read(at: index, from: thread)
    }
    /// Pushes the value; a released reference pushes `nil`.
    public func luaPush(_ thread: OpaquePointer) {
        do { try LuaStateCore.of(thread).push(self, onto: thread) } catch { lua_pushnil(thread) }
    }
}

extension Optional: LuaReadable where Wrapped: LuaReadable {
    public static var luaTypeName: String { Wrapped.luaTypeName }
    /// `nil` and a missing argument read as `.some(nil)`; any other value must be a `Wrapped`.
    public static func luaRead(_ thread: OpaquePointer, at index: Int32) -> Wrapped?? {
        if lua_type(thread, index) <= LUA_TNIL { return .some(nil) }
        return Wrapped.luaRead(thread, at: index).map { .some($0) }
    }
}

extension Optional: LuaPushable where Wrapped: LuaPushable {
    public func luaPush(_ thread: OpaquePointer) {
        if let value = self { value.luaPush(thread) } else { lua_pushnil(thread) }
    }
}
