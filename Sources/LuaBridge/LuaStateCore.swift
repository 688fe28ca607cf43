import CLua
import CLuaSupport

/// The part of a state shared by everything that must reach it later: refs, Swift function calls, modules.
///
/// References point here, never to ``LuaState``, so a closure stored inside Lua that holds a ref does not
/// keep the public owner alive: dropping the ``LuaState`` closes the state and runs every finalizer.
@usableFromInline
final class LuaStateCore {
    /// The main thread.
    @usableFromInline let mainThread: OpaquePointer
    /// Whether `lua_close` has not run yet.
    // Read on every call into Lua; only the owning thread writes it, so the dynamic check buys nothing.
    @usableFromInline @exclusivity(unchecked) private(set) var isOpen = true
    /// Registry references currently held by Swift.
    var liveReferences = 0
    /// Host modules that `require` finds before any file.
    var modules: [String: LuaModule] = [:]
    /// Folders where `require` looks for `.lua` files, in order.
    var scriptRoots: [String] = []

    init(mainThread: OpaquePointer) {
        self.mainThread = mainThread
    }

    @inlinable var runtime: UnsafeMutablePointer<esl_runtime> { esl_runtime_of(mainThread) }

    /// The thread to use for a call from Swift: the one that called into Swift, or the main thread.
    @inlinable var currentThread: OpaquePointer { runtime.pointee.active ?? mainThread }

    func close() {
        guard isOpen else { return }
        // Finalizers release Swift boxes, whose refs may call back here; they see an open state until the end.
        esl_close(mainThread)
        isOpen = false
    }

    @inlinable func checkOpen() throws(LuaError) {
        if !isOpen { throw LuaError(.stateClosed, message: "the Lua state is closed") }
    }

    /// The core of the state that `thread` belongs to.
    static func of(_ thread: OpaquePointer) -> LuaStateCore {
        Unmanaged<LuaStateCore>.fromOpaque(esl_runtime_of(thread).pointee.owner).takeUnretainedValue()
    }
}
