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
///
/// What counts is the moment the signal arrives: a signal handler records it at once
/// (``isStopped``), and the runner asks before each test starts and after each has run — a test
/// during which it arrived is interrupted, even when its code went on to its end. (A terminal's
/// Ctrl-C also kills the children of the process group, so a test waiting on one goes on at once;
/// had the stop waited for a thread to hear of the signal, that test would have passed and the next
/// ones started.) The rest — interrupting the Lua code, the message, the second signal — is done on a
/// thread of its own that the handler wakes.
final class RunInterruption: Sendable {
    /// What the first signal stops: the Lua code of the host open, and the runner.
    let target = InterruptTarget()
    private let state = Locked<(heard: Int32?, temporaryFolders: [URL])>((nil, []))

    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// Whether the first signal says on standard error that the run is stopping (not in a worker of
    /// `run --jobs`, whose run says it once).
    private let announcesStop: Bool

    init(announcesStop: Bool = true) {
        self.announcesStop = announcesStop
    }

    /// Handles the signals from now on, until the returned handling is cancelled.
    func handleSignals() -> SignalArrival.Handling {
        SignalArrival.handle(Self.signals, label: "envscript.run.signals") { [self] in signalArrived($0) }
    }

    /// What a signal does once heard (after the handler recorded it): the first interrupts the Lua code
    /// running and says so, the second ends the process.
    private func signalArrived(_ number: Int32) {
        state.withLock { state in
            if state.heard == nil { state.heard = number }
        }
        guard target.stop() > 1 else {
            // Written straight to the descriptor: flushing C's streams first (printError) could wait
            // for the lock of one the run is blocked reading (io.popen), and the second signal,
            // handled on this thread, would wait behind it.
            if announcesStop {
                FileHandle.standardError.write(Data("envscript: stopping on \(label); \(label) again ends at once\n".utf8))
            }
            return
        }
        for folder in state.withLock({ $0.temporaryFolders }) { try? FileManager.default.removeItem(at: folder) }
        _exit(128 + number)
    }

    /// The first signal that arrived, nil when none has: recorded by the signal handler itself, so
    /// from the moment it arrives (or, without the handler, once heard).
    private var arrivedSignal: Int32? {
        SignalArrival.firstArrived ?? state.withLock { $0.heard }
    }

    /// Whether a signal stopped the run: from the moment the first arrived (before its thread heard of
    /// it), or as soon as ``target`` was stopped.
    var isStopped: Bool { arrivedSignal != nil || target.isStopped }

    /// What stopped the run, in the report's words: `Ctrl-C` or `SIGTERM`.
    var label: String { arrivedSignal == SIGTERM ? "SIGTERM" : "Ctrl-C" }

    /// The status of a run a signal stopped (128 + its number), nil when none came.
    var exitStatus: Int32? { arrivedSignal.map { 128 + $0 } }

    /// Makes `folder` one of the run's temporary folders, which a second signal removes before it ends
    /// the process: the temporary home, a worker's captured output.
    func removesOnExit(_ folder: URL) {
        state.withLock { $0.temporaryFolders.append(folder) }
    }

    /// Takes `folder` back from ``removesOnExit(_:)`` (the run removes it itself).
    func forget(_ folder: URL) {
        state.withLock { $0.temporaryFolders.removeAll { $0 == folder } }
    }
}
