import Locking
import LuaBridge

/// What Ctrl-C stops in watch mode: the pass under way — its Lua code is interrupted, and its runner
/// sees ``isStopped`` and runs nothing more — and the watching itself.
final class InterruptTarget: Sendable {
    private let state = Locked<(stops: Int, interrupt: (@Sendable () -> Void)?)>((0, nil))

    /// Makes `interrupter` the one Ctrl-C uses (the host of the pass under way); a stop already asked
    /// for reaches it at once.
    func attach(_ interrupter: LuaInterrupter) {
        attach { interrupter.interrupt() }
    }

    /// Makes `interrupt` what Ctrl-C does (pass the stop on to the workers of `run --jobs`); a stop
    /// already asked for calls it at once.
    func attach(_ interrupt: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.interrupt = interrupt
            if state.stops > 0 { interrupt() }
        }
    }

    func detach() { state.withLock { $0.interrupt = nil } }

    /// Whether a stop was asked for.
    var isStopped: Bool { state.withLock { $0.stops > 0 } }

    /// Asks for a stop and interrupts the Lua code running; returns how many stops were asked for.
    @discardableResult
    func stop() -> Int {
        state.withLock { state in
            state.stops += 1
            state.interrupt?()
            return state.stops
        }
    }
}
