import CLua
import CLuaSupport

/// A Lua value kept alive by Swift through a registry reference.
///
/// The reference is released when this object goes away, when ``release()`` is called, or when the state
/// closes (after which it can no longer be used); none outlives its `lua_State`.
public class LuaRef: Hashable {
    @usableFromInline let core: LuaStateCore
    @usableFromInline let reference: Int32
    @usableFromInline @exclusivity(unchecked) var isReleased = false
    /// The Lua type name of the referenced value.
    public let typeName: String

    /// Takes the value on top of `thread`'s stack (popping it) into the registry.
    init(core: LuaStateCore, poppingFrom thread: OpaquePointer) {
        self.core = core
        self.typeName = String(cString: esl_typename(thread, -1))
        self.reference = luaL_ref(thread, ESL_REGISTRY_INDEX)
        core.liveReferences += 1
    }

    deinit { release() }

    /// Releases the registry reference now. Calling it again does nothing.
    public func release() {
        guard !isReleased else { return }
        isReleased = true
        core.liveReferences -= 1
        if core.isOpen { luaL_unref(core.currentThread, ESL_REGISTRY_INDEX, reference) }
    }

    /// Whether the reference can still be used.
    public var isValid: Bool { !isReleased && core.isOpen }

    @inlinable @inline(__always) func checkUsable() throws(LuaError) {
        if isReleased || !core.isOpen { throw unusableError() }
    }

    /// Why the reference cannot be used (kept out of line: it is never on the fast path).
    @usableFromInline func unusableError() -> LuaError {
        core.isOpen
            ? LuaError(.stateClosed, message: "the Lua reference was released")
            : LuaError(.stateClosed, message: "the Lua state is closed")
    }

    func push(onto thread: OpaquePointer) {
        lua_rawgeti(thread, ESL_REGISTRY_INDEX, lua_Integer(reference))
    }

    public static func == (lhs: LuaRef, rhs: LuaRef) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
