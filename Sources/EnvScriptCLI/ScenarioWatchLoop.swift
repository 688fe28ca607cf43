import Dispatch
import Foundation

/// `envscript run --watch`: runs the scenarios, then again each time one of the files changes,
/// clearing the terminal before each report, until Ctrl-C (or SIGTERM): it interrupts the Lua code
/// running, lets the pass under way end and ends the command with status 0; a second Ctrl-C ends it
/// at once (``RunInterruption``).
struct ScenarioWatchLoop {
    /// The files to watch, asked afresh before each pass (a start-up script may appear); some may not
    /// exist yet.
    let files: () -> [String]
    /// The signals' handling, installed by the caller; the first one ends the watching.
    let interruption: RunInterruption
    /// One run; its failure (a failed test, a script that does not compile) is shown and watching goes on.
    let pass: () throws -> Void

    /// Clears the screen and its scrollback, and puts the cursor at the top.
    static let clearScreen = "\u{1B}[H\u{1B}[2J\u{1B}[3J"

    func run() throws {
        while !interruption.isStopped {
            print(Self.clearScreen, terminator: "")
            var watch = FileChangeWatch(paths: files())
            do {
                try pass()
            } catch {
                let failure = ErrorReport.failure(for: error)
                if !failure.message.isEmpty { printError(failure.message) }
            }
            guard !interruption.isStopped else { break }
            let count = watch.existingCount
            printError("envscript: watching \(count) file\(count == 1 ? "" : "s") for changes; Ctrl-C stops")
            fflush(nil)
            guard watch.waitForChange(stopped: { interruption.isStopped }) else { break }
        }
    }
}
