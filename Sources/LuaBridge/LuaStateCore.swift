import CLua
public import CLuaSupport
public import Synchronization
import Locking

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
    /// Calls into Lua from Swift now running on this state, nested ones included. Only the owner of the
    /// state (under its lock) touches it.
    @usableFromInline @exclusivity(unchecked) var callDepth = 0
    /// Set when the public owner went away during a call: the state closes as the outermost call ends.
    @usableFromInline @exclusivity(unchecked) var closesWhenIdle = false
    /// Registry references currently held by Swift.
    let liveReferences = Atomic<Int>(0)
    /// What was let go of outside the state's lock — references dropped on any thread, Swift objects
    /// released by Lua's finalizers — waiting for the next entry into Lua, made under the lock.
    private let deferred = Locked(DeferredReleases())
    @usableFromInline let hasDeferred = Atomic<Bool>(false)

    private struct DeferredReleases {
        var references: [Int32] = []
        /// Retained objects, as the bit patterns of their pointers.
        var objects: [UInt] = []
    }
    /// Host modules that `require` finds before any file.
    var modules: [String: LuaModule] = [:]
    /// Folders where `require` looks for `.lua` files, in order.
    var scriptRoots: [String] = []
    /// The files `require`, `loadfile` and `dofile` have loaded code from, in order, each once.
    var loadedFiles: [String] = []
    /// ``LuaOptions/libraryRoots``.
    var libraryRoots: [String] = []
    /// Every folder `require` and `loadfile` load from: the script roots, then the library roots.
    var loadableRoots: [String] { scriptRoots + libraryRoots }

    /// The flag ``LuaInterrupter`` sets; it outlives the state for interrupters still held.
    let interruptFlag = LuaInterruptFlag()

    init(mainThread: OpaquePointer) {
        self.mainThread = mainThread
        esl_runtime_of(mainThread).pointee.interrupt_flag = interruptFlag.pointer
    }

    @inlinable var runtime: UnsafeMutablePointer<esl_runtime> { esl_runtime_of(mainThread) }

    /// The thread to use for a call from Swift: the one that called into Swift, or the main thread.
    @inlinable var currentThread: OpaquePointer { runtime.pointee.active ?? mainThread }

    /// Closes the state now, or refuses while a call into it runs: closing then would free the stack
    /// that call stands on.
    func close() throws(LuaError) {
        guard callDepth == 0 else {
            throw LuaError(.stateInUse, message: "the Lua state cannot be closed while a call into it is running; close it once the call has returned")
        }
        closeNow()
    }

    /// Closes the state now if no call runs, otherwise as soon as the outermost call has returned.
    func closeWhenIdle() {
        if callDepth == 0 { closeNow() } else { closesWhenIdle = true }
    }

    private func closeNow() {
        guard isOpen else { return }
        // Finalizers defer the release of Swift boxes; they are released once the state is gone.
        esl_close(mainThread)
        isOpen = false
        // A module may hold references into this state (a function value), which hold this core: let
        // them go, or the core and everything it keeps would never be freed.
        modules = [:]
        drainDeferredReleases()
    }

    @inlinable func checkOpen() throws(LuaError) {
        if !isOpen { throw LuaError(.stateClosed, message: "the Lua state is closed") }
        drainDeferred()
    }

    // MARK: Calls

    /// Marks the start of a call into Lua; pair it with ``leaveCall()`` once the stack is restored.
    @inlinable @inline(__always) func enterCall() { callDepth &+= 1 }

    /// Marks the end of a call into Lua, closing the state if its owner went away meanwhile.
    @inlinable @inline(__always) func leaveCall() {
        callDepth &-= 1
        if _slowPath(closesWhenIdle) && callDepth == 0 { closeAfterLastCall() }
    }

    @usableFromInline func closeAfterLastCall() {
        closesWhenIdle = false
        closeNow()
    }

    // MARK: Deferred releases

    /// Queues the release of registry reference `reference`; safe from any thread.
    func deferUnref(_ reference: Int32) {
        deferred.withLock { $0.references.append(reference) }
        hasDeferred.store(true, ordering: .releasing)
    }

    /// Queues the release of a retained Swift object; safe from any thread and inside a finalizer.
    func deferRelease(_ object: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: object)
        deferred.withLock { $0.objects.append(address) }
        hasDeferred.store(true, ordering: .releasing)
    }

    /// Carries out what was queued; called at every entry into Lua from Swift, which the owner of the
    /// state makes under its lock, and never inside a `lua_*` call.
    @inlinable @inline(__always) func drainDeferred() {
        if hasDeferred.load(ordering: .relaxed) { drainDeferredReleases() }
    }

    @usableFromInline func drainDeferredReleases() {
        // Releasing objects may run deinits that queue more: repeat until nothing is left.
        while true {
            let batch = deferred.withLock { deferred -> DeferredReleases in
                hasDeferred.store(false, ordering: .relaxed)
                defer { deferred = DeferredReleases() }
                return deferred
            }
            if batch.references.isEmpty && batch.objects.isEmpty { return }
            if isOpen {
                for reference in batch.references { luaL_unref(currentThread, ESL_REGISTRY_INDEX, reference) }
            }
            for address in batch.objects {
                Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
            }
        }
    }

    /// The core of the state that `thread` belongs to.
    static func of(_ thread: OpaquePointer) -> LuaStateCore {
        Unmanaged<LuaStateCore>.fromOpaque(esl_runtime_of(thread).pointee.owner).takeUnretainedValue()
    }

    /// Notes that code was loaded from `file`.
    func noteLoaded(_ file: String) {
        if !loadedFiles.contains(file) { loadedFiles.append(file) }
    }
}
