import Locking

/// Shows each test as it finishes (PASS, FAIL for an assertion's failure, ERROR for any other error,
/// SKIP), failures and errors with their message and traceback, each file that failed at
/// its top level as an `ERROR file:line` entry, and a last line `N passed, N failed` (and `, N errored`,
/// `, N skipped`). Names stay on one line and control characters show as `\u{…}` (``ReportText``).
package final class PrettyReporter: ScenarioReporter {
    private let write: (String) -> Void

    /// A reporter that writes lines with `write`.
    package init(write: @escaping (String) -> Void) {
        self.write = write
    }

    package func runWillStart() {}

    package func testDidFinish(_ result: ScenarioResult) {
        let name = ReportText.oneLine(result.fullName)
        switch result.outcome {
        case .passed:
            write("PASS \(name) (\(milliseconds(result.duration)))")
        case .skipped:
            write("SKIP \(name) (pending)")
        case .failed(let message, let traceback):
            write("FAIL \(name) (\(milliseconds(result.duration)))")
            writeDetails(message, traceback)
        case .error(let message, let traceback):
            write("ERROR \(name) (\(milliseconds(result.duration)))")
            writeDetails(message, traceback)
        case .errored(let message, let traceback, let line):
            let place = ReportText.oneLine(result.file) + (line.map { ":\($0)" } ?? "")
            write("ERROR \(place) (the file failed outside any test; its tests did not run)")
            writeDetails(message, traceback)
        }
    }

    package func runDidFinish(_ summary: ScenarioSummary) {
        write(summary.line)
    }

    /// The message and traceback, indented under their test.
    private func writeDetails(_ message: String, _ traceback: String?) {
        let message = ReportText.showingControls(message)
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) { write("     \(line)") }
        if let traceback {
            for line in ReportText.showingControls(traceback).split(separator: "\n") { write("     \(line)") }
        }
    }

    private func milliseconds(_ duration: Duration) -> String {
        let ms = duration.inSeconds * 1000
        return ms < 10 ? "\((ms * 10).rounded() / 10) ms" : "\(Int(ms.rounded())) ms"
    }
}
