import Locking
import LuaBridge

/// What Ctrl-C stops in watch mode: the pass under way — its Lua code is interrupted, and its runner
/// sees ``isStopped`` and runs nothing more — and the watching itself.
final class InterruptTarget: Sendable {
    private let state = Locked<(stops: Int, interrupter: LuaInterrupter?)>((0, nil))

    /// Makes `interrupter` the one Ctrl-C uses (the host of the pass under way); a stop already asked
    /// for reaches it at once.
    func attach(_ interrupter: LuaInterrupter) {
        state.withLock { state in
            state.interrupter = interrupter
            if state.stops > 0 { interrupter.interrupt() }
        }
    }

    func detach() { state.withLock { $0.interrupter = nil } }

    /// Whether a stop was asked for.
    var isStopped: Bool { state.withLock { $0.stops > 0 } }

    /// Asks for a stop and interrupts the Lua code running; returns how many stops were asked for.
    @discardableResult
    func stop() -> Int {
        state.withLock { state in
            state.stops += 1
            state.interrupter?.interrupt()
            return state.stops
        }
    }
}
