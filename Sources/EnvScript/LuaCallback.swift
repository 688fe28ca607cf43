import Locking
import LuaBridge

/// A Lua function that the engines may call from any thread: every call, and the release of the
/// function's registry reference, happens under the host's lock.
final class LuaCallback: @unchecked Sendable {
    private let function: LuaFunctionRef
    private let lock: HostLock
    private let timeLimit: TimeLimit?

    /// A wall-clock limit on each call.
    struct TimeLimit {
        /// The state the function lives in.
        weak var state: LuaState?
        var duration: Duration
        /// What the function is, for the error: `container.on_will_change hook`.
        var what: String
    }

    init(_ function: LuaFunctionRef, lock: HostLock, timeLimit: TimeLimit? = nil) {
        self.function = function
        self.lock = lock
        self.timeLimit = timeLimit
    }

    /// Calls the function and returns all its results.
    func call(_ arguments: [LuaValue]) throws -> [LuaValue] {
        try lock.withLock {
            guard let timeLimit, let state = timeLimit.state else { return try function.call(arguments) }
            let seconds = timeLimit.duration.inSeconds
            return try state.withTimeLimit(
                seconds: seconds, reason: "the \(timeLimit.what) ran longer than \(timeLimit.duration) (hook timeout)"
            ) { try function.call(arguments) }
        }
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
