import CLuaSupport

/// Stops the Lua code a state is running, from any thread: what Ctrl-C does in `envscript repl` and in
/// `envscript run --watch`.
///
/// The code stops as a passed time limit stops it: with a ``LuaError/Kind/timeLimit`` error reading
/// `interrupted`, which its own `pcall` cannot catch, nor the end of an inner limit forget. It stops at
/// its next instruction — after the C function running now returns, if one is (a long `string.rep`
/// or `collectgarbage`) — whatever the limits, or, if a host function is running, as it returns into
/// Lua. A call into Lua that starts after the request forgets it.
///
/// An interrupter may outlive its state: once the state is closed, interrupting does nothing.
package struct LuaInterrupter: Sendable {
    private let flag: LuaInterruptFlag

    init(flag: LuaInterruptFlag) {
        self.flag = flag
    }

    /// Asks the running Lua code to stop.
    package func interrupt() {
        esl_request_interrupt(flag.pointer)
    }
}

/// The word an interrupter sets and the watchdog and the limits' hook read (atomically), kept apart from
/// the state's runtime so that it lives as long as anyone holds it.
final class LuaInterruptFlag: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int32>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: 0)
    }

    deinit { pointer.deallocate() }
}

extension LuaState {
    /// An interrupter of this state's running code.
    package var interrupter: LuaInterrupter {
        LuaInterrupter(flag: core.interruptFlag)
    }
}
