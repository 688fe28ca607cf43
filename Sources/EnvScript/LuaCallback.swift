import LuaBridge

/// A Lua function that the engines may call from any thread: every call, and the release of the
/// function's registry reference, happens under the host's lock.
final class LuaCallback: @unchecked Sendable {
    private let function: LuaFunctionRef
    private let lock: HostLock

    init(_ function: LuaFunctionRef, lock: HostLock) {
        self.function = function
        self.lock = lock
    }

    /// Calls the function and returns all its results.
    func call(_ arguments: [LuaValue]) throws -> [LuaValue] {
        try lock.withLock { try function.call(arguments) }
    }

    /// Calls the function and returns its first result.
    func callFirst(_ arguments: LuaValue...) throws -> LuaValue {
        try call(arguments).first ?? .nil
    }

    /// Releases the reference now; later calls fail with a clear error.
    func release() {
        lock.withLock { function.release() }
    }

    deinit { release() }
}
