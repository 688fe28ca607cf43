import Dispatch
import Foundation
import Locking
import LuaBridge

/// What Ctrl-C stops in watch mode: the pass under way (its Lua code is interrupted, its runner sees
/// ``isStopped``) and the watching. Attaching a host's interrupter and interrupting share a lock, so an
/// interrupter is never used after its host closed.
final class InterruptTarget: Sendable {
    private let state = Locked<(stopped: Bool, interrupter: LuaInterrupter?)>((false, nil))

    func attach(_ interrupter: LuaInterrupter) { state.withLock { $0.interrupter = interrupter } }
    func detach() { state.withLock { $0.interrupter = nil } }
    var isStopped: Bool { state.withLock { $0.stopped } }

    func stop() {
        state.withLock {
            $0.stopped = true
            $0.interrupter?.interrupt()
        }
    }
}

/// `envscript run --watch`: runs the scenarios, then again each time one of the files changes,
/// clearing the terminal before each report, until Ctrl-C (or SIGTERM): it interrupts the Lua code
/// running, lets the pass under way end and ends the command with status 0; a second Ctrl-C ends it
/// at once.
struct ScenarioWatchLoop {
    /// The files to watch, asked afresh before each wait (a start-up script may appear).
    let files: () -> [String]
    /// One run; its failure (a failed test, a script that does not compile) is shown and watching goes on.
    let pass: (InterruptTarget) throws -> Void

    /// Clears the screen and its scrollback, and puts the cursor at the top.
    static let clearScreen = "\u{1B}[H\u{1B}[2J\u{1B}[3J"

    func run() throws {
        let target = InterruptTarget()
        let queue = DispatchQueue(label: "envscript.watch.signals")
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                target.stop()
                // The pass under way stops at its next call into Lua; a second signal ends at once.
                signal(number, SIG_DFL)
            }
            source.resume()
            return source
        }
        defer { for source in sources { source.cancel() } }

        while !target.isStopped {
            var watch = FileChangeWatch(paths: files())
            print(Self.clearScreen, terminator: "")
            do {
                try pass(target)
            } catch {
                let failure = ErrorReport.failure(for: error)
                if !failure.message.isEmpty { printError(failure.message) }
            }
            guard !target.isStopped else { break }
            let count = watch.paths.count
            printError("envscript: watching \(count) file\(count == 1 ? "" : "s") for changes; Ctrl-C stops")
            fflush(nil)
            guard watch.waitForChange(stopped: { target.isStopped }) else { break }
        }
    }
}
