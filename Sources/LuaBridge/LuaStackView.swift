public import CLua
public import CLuaSupport

/// A Lua thread's stack as ``LuaReadable`` and ``LuaPushable`` conformers see it: reading a slot and
/// pushing a plain value, and nothing that can raise a Lua error.
///
/// A raised Lua error unwinds with `longjmp`, which must never cross a Swift frame; so the raw
/// `lua_State` stays inside the bridge, and conformers get this view instead. Every operation here is
/// one of Lua's non-raising API calls (allocation failures cannot raise from Swift frames: the memory
/// cap is not enforced while Swift code runs). Valid only during the call that hands it out.
public struct LuaStackView {
    @usableFromInline let thread: OpaquePointer

    @usableFromInline init(_ thread: OpaquePointer) {
        self.thread = thread
    }

    /// The index of the top slot (the number of values on the stack).
    @inlinable public var top: Int32 { lua_gettop(thread) }

    /// Whether the slot at `index` holds `nil` or lies past the top.
    @inlinable package func isNil(at index: Int32) -> Bool { lua_type(thread, index) <= LUA_TNIL }

    /// The Lua type name of the value at `index` (`number`, `table`…), `no value` past the top.
    public func typeName(at index: Int32) -> String { String(cString: esl_typename(thread, index)) }

    /// The value at `index` as an integer: an integer, a float with an exact integer value, or a
    /// string that converts to one (as `luaL_checkinteger` reads them).
    @inlinable public func integer(at index: Int32) -> Int? {
        var isNumber: Int32 = 0
        let value = lua_tointegerx(thread, index, &isNumber)
        return isNumber != 0 ? Int(value) : nil
    }

    /// The value at `index` as a number: a number, or a string that converts to one (as
    /// `luaL_checknumber` reads them).
    @inlinable public func number(at index: Int32) -> Double? {
        var isNumber: Int32 = 0
        let value = lua_tonumberx(thread, index, &isNumber)
        return isNumber != 0 ? value : nil
    }

    /// The value at `index` when it is a boolean (no truthiness: `nil` is not `false`).
    @inlinable public func boolean(at index: Int32) -> Bool? {
        lua_type(thread, index) == LUA_TBOOLEAN ? lua_toboolean(thread, index) != 0 : nil
    }

    /// The value at `index` as text: strings, and numbers as `luaL_checkstring` reads them. Invalid
    /// UTF-8 is repaired.
    public func string(at index: Int32) -> String? {
        let type = lua_type(thread, index)
        guard type == LUA_TSTRING || type == LUA_TNUMBER else { return nil }
        var length = 0
        guard let pointer = lua_tolstring(thread, index, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    /// The value at `index` as a ``LuaValue``; `nil` for a table nested too deeply to read.
    public func value(at index: Int32) -> LuaValue? {
        try? LuaStateCore.of(thread).read(at: index, from: thread)
    }

    /// Pushes `nil`.
    @inlinable package func pushNil() { lua_pushnil(thread) }

    /// Pushes an integer.
    @inlinable package func push(_ value: Int) { lua_pushinteger(thread, lua_Integer(value)) }

    /// Pushes a float.
    @inlinable package func push(_ value: Double) { lua_pushnumber(thread, value) }

    /// Pushes a boolean.
    @inlinable package func push(_ value: Bool) { lua_pushboolean(thread, value ? 1 : 0) }

    /// Pushes a string.
    package func push(_ value: String) { LuaStateCore.pushString(value, onto: thread) }

    /// Pushes any value, leaving the stack as it was when the value cannot be pushed (a released
    /// reference inside it, a table nested too deeply).
    package func push(_ value: LuaValue) throws(LuaError) {
        try LuaStateCore.of(thread).push(value, onto: thread)
    }
}
