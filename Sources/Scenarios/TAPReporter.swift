/// The Test Anything Protocol (version 13): `ok` / `not ok` lines, with the failure in a YAML block
/// (`severity: error` for an error that is not an assertion's) and pending tests marked `# SKIP`, then
/// the plan line `1..N`. A file that failed at its top level is a `not ok` line of its own, named after
/// the file, with `severity: error`.
///
/// Every test is one line whatever its name: in a description a line feed shows as `\n`, a backslash
/// as `\\`, `#` as `\#` (TAP 14's escapes), and control characters as `\u{…}` (``ReportText``).
/// Messages and tracebacks go in the YAML block as ``YAMLText`` writes them.
package final class TAPReporter: ScenarioReporter {
    private let write: (String) -> Void
    private var number = 0

    /// A reporter that writes lines with `write`.
    package init(write: @escaping (String) -> Void) {
        self.write = write
    }

    package func runWillStart() {
        write("TAP version 13")
    }

    package func testDidFinish(_ result: ScenarioResult) {
        number += 1
        let name = Self.description(result.fullName)
        switch result.outcome {
        case .passed:
            write("ok \(number) - \(name)")
        case .skipped:
            write("ok \(number) - \(name) # SKIP pending")
        case .failed(let message, let traceback):
            write("not ok \(number) - \(name)")
            writeDiagnostics(message, traceback)
        case .error(let message, let traceback):
            write("not ok \(number) - \(name)")
            writeDiagnostics(message, traceback, severity: "error")
        case .errored(let message, let traceback, let line):
            let place = Self.description(result.file) + (line.map { ":\($0)" } ?? "")
            write("not ok \(number) - \(place) (the file failed outside any test; its tests did not run)")
            writeDiagnostics(message, traceback, severity: "error")
        }
    }

    package func runDidFinish(_ summary: ScenarioSummary) {
        // A run stopped early has fewer lines than its plan: TAP's way to say so is to bail out.
        if let reason = summary.stopReason { write("Bail out! \(ReportText.oneLine(reason))") }
        // The plan comes last (as busted writes it): a hook that fails adds a line of its own, so the
        // number of lines is known only at the end.
        write("1..\(number)")
        write("# \(summary.line)")
    }

    /// `text` as the description of a test line: its own backslashes and `#` escaped first, so that
    /// the `\n` and `\u{…}` shown for line feeds and controls stay single.
    static func description(_ text: String) -> String {
        ReportText.oneLine(
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#"))
    }

    /// The YAML block; `severity: error` marks an error that is not an assertion's failure.
    private func writeDiagnostics(_ message: String, _ traceback: String?, severity: String? = nil) {
        write("  ---")
        if let severity { write("  severity: \(severity)") }
        YAMLText.lines(key: "message", message, indent: 2).forEach(write)
        if let traceback { YAMLText.lines(key: "traceback", traceback, indent: 2).forEach(write) }
        write("  ...")
    }
}
