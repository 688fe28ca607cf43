import CLua
import CLuaSupport

extension LuaFunctionRef {
    /// Gives this main chunk the `_ENV` of another main chunk (one loaded from Lua with `load`'s fourth
    /// argument, say): its globals, and those of every function it defines, are then read and written
    /// where `other`'s are.
    ///
    /// - Returns: false, changing nothing, when either function's first upvalue is not `_ENV` (it is not
    ///   a main chunk) or `other` belongs to another state.
    @discardableResult
    package func setEnvironment(like other: LuaFunctionRef) throws -> Bool {
        try checkUsable()
        guard other.core === core, other.isValid else { return false }
        let thread = core.currentThread
        guard lua_checkstack(thread, 4) != 0 else { return false }
        let top = lua_gettop(thread)
        defer { lua_settop(thread, top) }
        // None of these calls can raise: they push registry values and read or write upvalue slots.
        push(onto: thread)
        guard Self.firstUpvalueIsEnvironment(thread, at: top + 1) else { return false }
        other.push(onto: thread)
        guard Self.firstUpvalueIsEnvironment(thread, at: top + 2) else { return false }
        _ = lua_getupvalue(thread, top + 2, 1)
        return lua_setupvalue(thread, top + 1, 1) != nil
    }

    private static func firstUpvalueIsEnvironment(_ thread: OpaquePointer, at index: Int32) -> Bool {
        guard lua_type(thread, index) == LUA_TFUNCTION, let name = lua_getupvalue(thread, index, 1) else { return false }
        lua_settop(thread, -2)
        return String(cString: name) == "_ENV"
    }
}
