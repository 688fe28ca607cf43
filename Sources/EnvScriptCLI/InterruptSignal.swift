import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM handled instead of dying of them, so a command can stop cleanly: a
/// serving command ends its streams, detaches from the home and removes its socket; watch mode and the
/// REPL stop the Lua code running.
enum InterruptSignal {
    /// Handles `signals` with `handler` (given the signal's number), on a queue of its own, until the
    /// returned handling is cancelled: the default action (ending the process) no longer happens.
    static func handle(_ signals: [Int32], label: String, _ handler: @escaping @Sendable (Int32) -> Void) -> Handling {
        let queue = DispatchQueue(label: label)
        return Handling(sources: signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        })
    }

    /// Signals being handled; ``cancel()`` stops handling them (they stay ignored).
    struct Handling {
        fileprivate let sources: [any DispatchSourceSignal]

        func cancel() {
            for source in sources { source.cancel() }
        }
    }

    /// Blocks until the process receives SIGINT or SIGTERM.
    static func wait() {
        let received = DispatchSemaphore(value: 0)
        let handling = handle([SIGINT, SIGTERM], label: "envscript.signals") { _ in received.signal() }
        received.wait()
        handling.cancel()
    }
}
