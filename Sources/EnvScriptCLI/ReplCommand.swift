import ArgumentParser
import Dispatch
import EnvScript
import Foundation
import Scenarios

/// `envscript repl`: an interactive Lua prompt over a home, with the host modules and the start-up
/// script loaded.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "An interactive Lua prompt over a home, with the host modules and the start-up script loaded.",
        discussion: """
            An expression prints its values (tables over several lines, host objects as they describe \
            themselves); a statement cut short (an open function, do, string...) goes on with the next \
            line at the >> prompt. Tab completes globals, keywords, fields after '.' and methods after \
            ':'. Ctrl-C abandons the line being typed, or stops the statement running (through the same \
            mechanism as the time limits: the statement fails with "interrupted"); Ctrl-D on an empty \
            line leaves. The history is kept in the home's bookkeeping (never switched with the \
            containers), readable by its owner only. assert, spy, stub, mock and match are luassert's, \
            as in scenarios. There is no instruction limit unless --instruction-limit gives one.

            The REPL attaches to the home like `envscript run`: switches made elsewhere wait for its \
            hooks, and its own switches ask the other processes on the home.

            Exit status: 0 after Ctrl-D or the end of the input; 2 when the start-up script fails.
            """)

    @OptionGroup var runtime: RuntimeOptions

    func run() throws {
        let home = runtime.configuredHome
        let host = try runtime.openHost(home: home, scripts: [], writesApplicationData: true, attaches: true, budgetByDefault: false)
        defer { host.close() }
        let session: ReplSession
        do {
            session = try ReplSession(host: host)
        } catch {
            throw ErrorReport.failure(for: error)
        }
        let history = ReplHistory(toolsFolder: host.containers.toolsFolder)
        let editor = try LineEditor(program: "envscript") { session.completions(for: $0) }
        for entry in history.load() { editor.remember(entry) }

        // While a statement runs the terminal is in its usual mode, and Ctrl-C sends SIGINT: it stops
        // the statement, not the REPL. (At the prompt the line editor reads Ctrl-C as a key.)
        let interrupter = session.interrupter
        let interrupts = InterruptSignal.handle([SIGINT], label: "envscript.repl.interrupts") { _ in interrupter.interrupt() }
        defer { interrupts.cancel() }

        let active = (try? host.containers.activeContainer.name).map { ", container \($0)" } ?? ""
        print("\(EnvScriptVersion.banner), home \(home.path)\(active)")
        print(runtime.startupScriptsLine(forFiles: []))
        print("Ctrl-D leaves, Ctrl-C stops a statement, Tab completes.")

        var pending = ""
        while true {
            switch editor.read(prompt: pending.isEmpty ? "> " : ">> ") {
            case .end:
                print()
                return
            case .interrupted:
                pending = ""
            case .line(let line):
                pending += (pending.isEmpty ? "" : "\n") + line
                if pending.allSatisfy(\.isWhitespace) {
                    pending = ""
                    continue
                }
                let outcome = session.evaluate(pending)
                if outcome == .incomplete { continue }
                switch outcome {
                case .shown(let text?): print(ReportText.showingControls(text))
                case .failed(let message): printError(ReportText.showingControls(message))
                case .interrupted: printError("\ninterrupted")
                default: break
                }
                fflush(nil)
                editor.remember(pending)
                do {
                    try history.append(pending)
                } catch {
                    printError("warning: the history could not be saved in \(history.file.path): \(error)")
                }
                pending = ""
            }
        }
    }
}
