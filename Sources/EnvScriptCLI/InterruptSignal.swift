import Dispatch
import Foundation

/// Waiting for Ctrl-C (SIGINT) or SIGTERM instead of dying of it, so a serving command can stop
/// cleanly: end its streams, detach from the home, remove its socket.
enum InterruptSignal {
    /// Blocks until the process receives SIGINT or SIGTERM.
    static func wait() {
        let received = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "envscript.signals")
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { received.signal() }
            source.resume()
            return source
        }
        received.wait()
        for source in sources { source.cancel() }
    }
}
