import CLua
import CLuaSupport

/// A Lua function kept by Swift (a hook, a decryptor, a provider), callable later.
///
/// Calls run protected, under the state's limits, on the thread currently calling into Swift (or the
/// main thread). Errors come back as ``LuaError`` with the chunk, line and traceback.
public final class LuaFunctionRef: LuaRef {
    /// Calls the function with any values and returns all its results.
    @discardableResult
    package func call(_ arguments: [LuaValue] = []) throws -> [LuaValue] {
        try checkUsable()
        core.enterCall()
        defer { core.leaveCall() }
        let thread = core.currentThread
        guard lua_checkstack(thread, Int32(arguments.count) + 2) != 0 else {
            throw LuaError(.runtime, message: "Lua stack overflow: too many arguments")
        }
        let handler = esl_push_handler_and_ref(thread, reference)
        defer { lua_settop(thread, handler - 1) }
        do {
            for argument in arguments { try core.push(argument, onto: thread) }
        }
        try core.protectedCall(thread, arguments: Int32(arguments.count), results: LUA_MULTRET, handler: handler)
        var results: [LuaValue] = []
        let top = lua_gettop(thread)
        if top > handler {
            results.reserveCapacity(Int(top - handler))
            for index in (handler + 1)...top { results.append(try core.read(at: index, from: thread)) }
        }
        return results
    }

    /// Calls the function with any values and returns its first result.
    @discardableResult
    package func call(_ arguments: LuaValue...) throws -> LuaValue {
        try call(arguments).first ?? .nil
    }
}
