import CSignalArrival
import Foundation

/// Signals handled by a real signal handler (`CSignalArrival`), for the commands that must know the
/// moment a Ctrl-C arrived rather than the moment a thread got round to hearing of it: `envscript run`
/// (a test during which it arrived is interrupted) and `container activate` (a switch interrupted
/// between two moves undoes them).
///
/// The handler records the first signal at once (``firstArrived``) on whichever thread the signal is
/// delivered to — a signal directed at the thread doing the work included — and wakes a thread of its
/// own that calls `heard` for each signal. The signals are unblocked in the calling thread, so work done
/// on it hears them even when the process was started with them blocked. One set of signals per
/// process at a time.
enum SignalArrival {
    /// Handles `signals` until the returned handling is cancelled: the default action (ending the
    /// process) no longer happens, and `heard` is called, on a thread named `label`, for each arrival.
    static func handle(_ signals: [Int32], label: String, _ heard: @escaping @Sendable (Int32) -> Void) -> Handling {
        let descriptor = signals.withUnsafeBufferPointer { esa_install($0.baseAddress, Int32($0.count)) }
        guard descriptor >= 0 else {
            // No handler could be installed (it never happens): the signals are heard on a queue instead.
            let handling = InterruptSignal.handle(signals, label: label, heard)
            return Handling { handling.cancel() }
        }
        let ended = DispatchSemaphore(value: 0)
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(descriptor, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1, byte != 0 else { break }
                heard(Int32(byte))
            }
            close(descriptor)
            ended.signal()
        }
        thread.name = label
        thread.start()
        return Handling {
            signals.withUnsafeBufferPointer { esa_uninstall($0.baseAddress, Int32($0.count)) }
            // The signals that arrived are heard before the command goes on (their messages written),
            // since the work may have stopped before the thread got to them.
            _ = ended.wait(timeout: .now() + 5)
        }
    }

    /// The first signal that arrived since the last ``handle(_:label:_:)``, from the moment it arrived;
    /// nil when none has.
    static var firstArrived: Int32? {
        let number = esa_first_signal()
        return number != 0 ? number : nil
    }

    /// The signals' handling; ``cancel()`` stops it (the signals are then ignored).
    struct Handling {
        let cancel: () -> Void
    }
}
