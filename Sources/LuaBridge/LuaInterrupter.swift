import CLuaSupport

/// Stops the Lua code a state is running, from any thread: what Ctrl-C does in `envscript repl`.
///
/// The code stops as a passed time limit stops it: with a ``LuaError/Kind/timeLimit`` error reading
/// `interrupted`, which its own `pcall` cannot catch. The request takes effect at the next step of the
/// count hook, so only while a limit is in force — an instruction limit, or a call inside
/// ``LuaState/withTimeLimit(seconds:reason:_:)``. A call into Lua that starts after the request
/// forgets it.
///
/// An interrupter is valid while its state is open: keep the state open while another thread may
/// call ``interrupt()``.
public struct LuaInterrupter: @unchecked Sendable {
    private let runtime: UnsafeMutablePointer<esl_runtime>

    init(runtime: UnsafeMutablePointer<esl_runtime>) {
        self.runtime = runtime
    }

    /// Asks the running Lua code to stop.
    public func interrupt() {
        esl_request_interrupt(runtime)
    }
}

extension LuaState {
    /// An interrupter of this state's running code (valid while the state is open).
    public var interrupter: LuaInterrupter {
        LuaInterrupter(runtime: core.runtime)
    }
}
