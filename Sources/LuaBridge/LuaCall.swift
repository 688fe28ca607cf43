import CLua
import CLuaSupport

/// One call of a Swift function from Lua: its arguments and a place for its results.
///
/// Argument readers throw ``LuaArgumentError`` in `luaL_argerror` style. Valid only during the call.
public struct LuaCall {
    /// The Lua thread that made the call. It stays inside the bridge: code outside reaches the stack
    /// through ``stack``, which cannot raise a Lua error through a Swift frame.
    @usableFromInline let thread: OpaquePointer
    @usableFromInline let function: LuaFunctionBox

    @usableFromInline init(thread: OpaquePointer, function: LuaFunctionBox) {
        self.thread = thread
        self.function = function
    }

    /// The caller's stack: the arguments are slots 1 through ``argumentCount``.
    @inlinable public var stack: LuaStackView { LuaStackView(thread) }

    /// The function's name as scripts call it.
    package var functionName: String { function.name }

    /// The number of arguments.
    public var argumentCount: Int32 { lua_gettop(thread) }

    var core: LuaStateCore { LuaStateCore.of(thread) }

    /// Reads the argument after `position` as `T` and advances `position`.
    @inlinable
    public func next<T: LuaReadable>(_ position: inout Int32, as type: T.Type) throws -> T {
        position += 1
        return try argument(position, as: type)
    }

    /// Reads argument `position` (1-based) as `T`.
    @inlinable
    public func argument<T: LuaReadable>(_ position: Int32, as type: T.Type = T.self) throws -> T {
        if let value = T.luaRead(from: stack, at: position) { return value }
        throw argumentError(position, expected: T.luaTypeName)
    }

    /// The error for argument `position` not being `expected`.
    @usableFromInline
    func argumentError(_ position: Int32, expected: String) -> LuaArgumentError {
        let actual = lua_type(thread, position)
        let problem: String
        if actual == LUA_TNONE {
            problem = "\(expected) expected, got no value"
        } else if expected == "number", actual == LUA_TNUMBER {
            problem = "number has no integer representation"
        } else {
            problem = "\(expected) expected, got \(String(cString: esl_typename(thread, position)))"
        }
        return LuaArgumentError(position: position, function: function.name, problem: problem)
    }

    /// An argument error with a custom problem, e.g. `unknown provider kind`.
    package func argumentError(_ position: Int32, _ problem: String) -> LuaArgumentError {
        LuaArgumentError(position: position, function: function.name, problem: problem)
    }

    /// Reads argument `position` as any ``LuaValue`` (a missing argument is `nil`).
    public func value(_ position: Int32) throws -> LuaValue {
        do {
            return try core.read(at: position, from: thread)
        } catch {
            throw argumentError(position, error.message)
        }
    }

    /// Reads argument `position` as a table.
    public func table(_ position: Int32) throws -> LuaTable {
        guard lua_type(thread, position) == LUA_TTABLE else { throw argumentError(position, expected: "table") }
        return try value(position).tableValue ?? LuaTable()
    }

    /// Reads argument `position` as a table, or `nil` when it is missing or `nil`.
    package func optionalTable(_ position: Int32) throws -> LuaTable? {
        lua_type(thread, position) <= LUA_TNIL ? nil : try table(position)
    }

    /// Reads argument `position` as a function, kept by a registry reference.
    public func function(_ position: Int32) throws -> LuaFunctionRef {
        guard lua_type(thread, position) == LUA_TFUNCTION else { throw argumentError(position, expected: "function") }
        lua_pushvalue(thread, position)
        return LuaFunctionRef(core: core, poppingFrom: thread)
    }

    /// Reads argument `position` as a Swift object of type `T` pushed as ``LuaValue/object(_:)``.
    public func object<T: AnyObject>(_ position: Int32, as type: T.Type, typeName: String) throws -> T {
        if let raw = esl_to_swift_object(thread, position),
            let object = Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? T
        {
            return object
        }
        throw argumentError(position, expected: typeName)
    }

    /// Pushes a result.
    package func push(_ value: some LuaPushable) {
        value.luaPush(onto: stack)
    }

    /// Pushes results and returns their count, for `return call.results(a, b)`.
    package func results(_ values: LuaValue...) throws -> Int32 {
        try results(values)
    }

    /// Pushes results and returns their count.
    package func results(_ values: [LuaValue]) throws -> Int32 {
        guard lua_checkstack(thread, Int32(values.count)) != 0 else {
            throw LuaScriptError("too many results to return")
        }
        for value in values { try core.push(value, onto: thread) }
        return Int32(values.count)
    }
}
