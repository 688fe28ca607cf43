/// Swift functions with typed arguments, read in `luaL_check*` style, and at most one typed result:
/// `LuaFunction("add") { (a: Int, b: Int) in a + b }`.
///
/// Fixed arities (rather than a parameter pack) keep the call path fully specialised: the bridge adds
/// almost nothing to what a C function registered with `lua_pushcfunction` costs.
extension LuaFunction {
    /// A function `name` of no arguments returning one value.
    @inlinable
    public init<Result: LuaPushable>(_ name: String, _ body: @escaping () throws -> Result) {
        self.init(name) { call in call.returning(try body()) }
    }

    /// A function `name` of one typed argument returning one value.
    @inlinable
    public init<A: LuaReadable, Result: LuaPushable>(_ name: String, _ body: @escaping (A) throws -> Result) {
        self.init(name) { call in call.returning(try body(call.argument(1))) }
    }

    /// A function `name` of two typed arguments returning one value.
    @inlinable
    public init<A: LuaReadable, B: LuaReadable, Result: LuaPushable>(
        _ name: String, _ body: @escaping (A, B) throws -> Result
    ) {
        self.init(name) { call in call.returning(try body(call.argument(1), call.argument(2))) }
    }

    /// A function `name` of three typed arguments returning one value.
    @inlinable
    public init<A: LuaReadable, B: LuaReadable, C: LuaReadable, Result: LuaPushable>(
        _ name: String, _ body: @escaping (A, B, C) throws -> Result
    ) {
        self.init(name) { call in call.returning(try body(call.argument(1), call.argument(2), call.argument(3))) }
    }

    /// A function `name` of no arguments returning nothing.
    @inlinable
    public init(_ name: String, _ body: @escaping () throws -> Void) {
        self.init(name) { _ in try body(); return 0 }
    }

    /// A function `name` of one typed argument returning nothing.
    @inlinable
    public init<A: LuaReadable>(_ name: String, _ body: @escaping (A) throws -> Void) {
        self.init(name) { call in try body(call.argument(1)); return 0 }
    }

    /// A function `name` of two typed arguments returning nothing.
    @inlinable
    public init<A: LuaReadable, B: LuaReadable>(_ name: String, _ body: @escaping (A, B) throws -> Void) {
        self.init(name) { call in try body(call.argument(1), call.argument(2)); return 0 }
    }

    /// A function `name` of three typed arguments returning nothing.
    @inlinable
    public init<A: LuaReadable, B: LuaReadable, C: LuaReadable>(_ name: String, _ body: @escaping (A, B, C) throws -> Void) {
        self.init(name) { call in try body(call.argument(1), call.argument(2), call.argument(3)); return 0 }
    }
}

extension LuaCall {
    /// Pushes the one result of a typed function and returns the result count.
    @inlinable
    public func returning(_ result: some LuaPushable) -> Int32 {
        result.luaPush(onto: stack)
        return 1
    }
}
