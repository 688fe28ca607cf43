import CLua
import CLuaSupport
public import Synchronization

/// A Lua value kept alive by Swift through a registry reference.
///
/// The reference is released when this object goes away, when ``release()`` is called, or when the state
/// closes (after which it can no longer be used); none outlives its `lua_State`. Dropping or releasing a
/// reference is safe on any thread: the registry slot is freed at the next entry into Lua, which the
/// state's owner makes under its lock.
public class LuaRef: Hashable {
    @usableFromInline let core: LuaStateCore
    @usableFromInline let reference: Int32
    /// Set once, by whichever thread releases first.
    @usableFromInline let released = Atomic<Bool>(false)
    /// The Lua type name of the referenced value.
    public let typeName: String

    /// Takes the value on top of `thread`'s stack (popping it) into the registry.
    init(core: LuaStateCore, poppingFrom thread: OpaquePointer) {
        self.core = core
        self.typeName = String(cString: esl_typename(thread, -1))
        self.reference = luaL_ref(thread, ESL_REGISTRY_INDEX)
        core.liveReferences.add(1, ordering: .relaxed)
    }

    deinit { release() }

    /// Releases the registry reference now. Calling it again does nothing.
    public func release() {
        guard released.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        core.liveReferences.subtract(1, ordering: .relaxed)
        core.deferUnref(reference)
    }

    /// Whether the reference can still be used.
    package var isValid: Bool { !released.load(ordering: .relaxed) && core.isOpen }

    /// Throws unless the reference can be used; then carries out deferred releases, since a use is an
    /// entry into Lua.
    @inlinable @inline(__always) func checkUsable() throws(LuaError) {
        if released.load(ordering: .relaxed) || !core.isOpen { throw unusableError() }
        core.drainDeferred()
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
