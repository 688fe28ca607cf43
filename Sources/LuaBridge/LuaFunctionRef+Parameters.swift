import CLua
import CLuaSupport

extension LuaFunctionRef {
    /// How many named parameters the function declares, and whether it also takes `...`; nil for a C
    /// function, whose parameters Lua does not know. For a caller that passes an extra argument only
    /// to functions that read it (a tweak provider's `get(feature, variable, ctx)`).
    package var parameters: (count: Int, isVariadic: Bool)? {
        guard isValid else { return nil }
        let thread = core.currentThread
        guard lua_checkstack(thread, 1) != 0 else { return nil }
        push(onto: thread)
        var record = lua_Debug()
        // ">" takes the function from the top of the stack (and pops it); "S" says whether it is Lua's.
        guard lua_getinfo(thread, ">Su", &record) != 0, let what = record.what, String(cString: what) != "C" else { return nil }
        return (Int(record.nparams), record.isvararg != 0)
    }
}
