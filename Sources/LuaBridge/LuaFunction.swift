import CLua
import CLuaSupport

/// A Swift function that Lua can call.
///
/// The body receives a ``LuaCall`` to read its arguments and push its results, and returns the number of
/// results. A thrown error becomes a Lua error once the Swift frame has returned (no longjmp crosses
/// Swift): ``LuaArgumentError`` reads `file:line: bad argument #2 to 'name' (...)`, a ``LuaError`` from a
/// nested call keeps its message, and any other error is raised as its description with the caller's line.
public struct LuaFunction {
    @usableFromInline let box: LuaFunctionBox

    /// A function with a raw body. `name` is how scripts call it (`tweak.set`); errors use it.
    public init(_ name: String, body: @escaping (LuaCall) throws -> Int32) {
        box = LuaFunctionBox(name: name, body: body)
    }

    /// The name used in error messages.
    public var name: String { box.name }
}

/// The heap box behind a ``LuaFunction``, retained by the Lua closure that calls it.
@usableFromInline
final class LuaFunctionBox {
    let name: String
    @usableFromInline let body: (LuaCall) throws -> Int32

    init(name: String, body: @escaping (LuaCall) throws -> Int32) {
        self.name = name
        self.body = body
    }
}

/// Called by the C trampoline for every call of a Swift function from Lua.
let luaDispatch: esl_dispatch_fn = { thread, box in
    let thread = thread!
    do {
        // The Lua closure owns the box for the whole call: no retain needed to use it.
        return try Unmanaged<LuaFunctionBox>.fromOpaque(box!)._withUnsafeGuaranteedRef { function in
            try function.body(LuaCall(thread: thread, function: function))
        }
    } catch let error as LuaError {
        LuaStateCore.pushString(error.message, onto: thread)
        return ESL_RAISE
    } catch {
        LuaStateCore.pushString(String(describing: error), onto: thread)
        return ESL_RAISE_WITH_POSITION
    }
}

/// Called by Lua's finalizers when Lua lets go of a retained Swift object or function box. The release
/// itself waits for the next entry into Lua from Swift: run here, inside whatever `lua_*` call
/// collected the garbage, a deinit chain could take locks or call into Lua.
let luaRelease: esl_release_fn = { thread, object in
    LuaStateCore.of(thread!).deferRelease(object!)
}
