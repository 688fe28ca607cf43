public import CLua
public import CLuaSupport

/// Calls of a kept Lua function with typed arguments and one typed result:
/// `let sum: Int = try add.call(2, 3)`.
///
/// Fixed arities (rather than a parameter pack) keep the path fully specialised, close to what
/// `lua_rawgeti` + `lua_pcall` cost from C.
extension LuaFunctionRef {
    @inlinable
    package func call<Result: LuaReadable>(returning: Result.Type = Result.self) throws -> Result {
        try typedCall(argumentCount: 0) { _ in }
    }

    @inlinable
    package func call<A: LuaPushable, Result: LuaReadable>(_ a: A, returning: Result.Type = Result.self) throws -> Result {
        try typedCall(argumentCount: 1) { a.luaPush(onto: $0) }
    }

    @inlinable
    package func call<A: LuaPushable, B: LuaPushable, Result: LuaReadable>(
        _ a: A, _ b: B, returning: Result.Type = Result.self
    ) throws -> Result {
        try typedCall(argumentCount: 2) { stack in
            a.luaPush(onto: stack)
            b.luaPush(onto: stack)
        }
    }

    @inlinable
    package func call<A: LuaPushable, B: LuaPushable, C: LuaPushable, Result: LuaReadable>(
        _ a: A, _ b: B, _ c: C, returning: Result.Type = Result.self
    ) throws -> Result {
        try typedCall(argumentCount: 3) { stack in
            a.luaPush(onto: stack)
            b.luaPush(onto: stack)
            c.luaPush(onto: stack)
        }
    }

    /// Pushes the message handler and the function, lets `pushArguments` push `argumentCount`
    /// values, calls protected and reads one result. The handler is addressed relative to the top,
    /// and the stack is restored by popping the result (or the error) and the handler.
    @inlinable @inline(__always)
    func typedCall<Result: LuaReadable>(argumentCount: Int32, pushArguments: (LuaStackView) -> Void) throws -> Result {
        try checkUsable()
        core.enterCall()
        defer { core.leaveCall() }
        let thread = core.currentThread
        esl_push_handler_then_ref(thread, reference)
        defer { lua_settop(thread, -3) }
        pushArguments(LuaStackView(thread))
        try core.protectedCall(thread, arguments: argumentCount, results: 1, handler: -(argumentCount + 2))
        if let result = Result.luaRead(from: LuaStackView(thread), at: -1) { return result }
        throw LuaError(.typeMismatch, message: "\(Result.luaTypeName) expected as the result of a Lua function, got \(String(cString: esl_typename(thread, -1)))")
    }
}
