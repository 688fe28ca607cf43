import Foundation
import Locking

/// Ctrl-C (SIGINT) and SIGTERM during `envscript run`, handled instead of dying of them.
///
/// The first signal stops the run at its next step: the Lua code running is interrupted (its test is
/// reported as an error), no other test starts (they count as not run), and the run ends as at any
/// end — its report written, its temporary home removed — with status 128 + the signal's number
/// (130 for Ctrl-C), as a shell reports a command the signal ended. In watch mode it ends the
/// watching instead (``ScenarioWatchLoop``). A second signal ends the process at once, with that
/// status, removing the temporary home first.
final class RunInterruption: Sendable {
    /// What the first signal stops: the Lua code of the host open, and the runner.
    let target = InterruptTarget()
    private let state = Locked<(signal: Int32?, temporaryFolder: URL?)>((nil, nil))

    /// Handles the signals from now on, until the returned handling is cancelled.
    func handleSignals() -> InterruptSignal.Handling {
        InterruptSignal.handle([SIGINT, SIGTERM], label: "envscript.run.signals") { [self] number in
            let folder = state.withLock { state in
                if state.signal == nil { state.signal = number }
                return state.temporaryFolder
            }
            guard target.stop() > 1 else {
                // Written straight to the descriptor: flushing C's streams first (printError) could wait
                // for the lock of one the run is blocked reading (io.popen), and the second signal,
                // handled on this queue, would wait behind it.
                FileHandle.standardError.write(Data("envscript: stopping on \(label); \(label) again ends at once\n".utf8))
                return
            }
            if let folder { try? FileManager.default.removeItem(at: folder) }
            _exit(128 + number)
        }
    }

    /// What stopped the run, in the report's words: `Ctrl-C` or `SIGTERM`.
    var label: String { state.withLock { $0.signal } == SIGTERM ? "SIGTERM" : "Ctrl-C" }

    /// The status of a run a signal stopped (128 + its number), nil when none came.
    var exitStatus: Int32? { state.withLock { $0.signal }.map { 128 + $0 } }

    /// The run's temporary folder, which a second signal removes before it ends the process; nil when
    /// there is none (or no more).
    var temporaryFolder: URL? {
        get { state.withLock { $0.temporaryFolder } }
        set { state.withLock { $0.temporaryFolder = newValue } }
    }
}
