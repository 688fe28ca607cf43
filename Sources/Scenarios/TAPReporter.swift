/// The Test Anything Protocol (version 13): a plan line `1..N`, then `ok` / `not ok` lines, with the
/// failure in a YAML block and pending tests marked `# SKIP`.
public final class TAPReporter: ScenarioReporter {
    private let write: (String) -> Void
    private var number = 0

    /// A reporter that writes lines with `write`.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    public func runWillStart(testCount: Int) {
        write("TAP version 13")
        write("1..\(testCount)")
    }

    public func testDidFinish(_ result: ScenarioResult) {
        number += 1
        let name = result.fullName.replacingOccurrences(of: "#", with: "\\#")
        switch result.outcome {
        case .passed:
            write("ok \(number) - \(name)")
        case .skipped:
            write("ok \(number) - \(name) # SKIP pending")
        case .failed(let message, let traceback):
            write("not ok \(number) - \(name)")
            write("  ---")
            write("  message: |")
            for line in message.split(separator: "\n", omittingEmptySubsequences: false) { write("    \(line)") }
            if let traceback {
                write("  traceback: |")
                for line in traceback.split(separator: "\n") { write("    \(line)") }
            }
            write("  ...")
        }
    }

    public func runDidFinish(_ summary: ScenarioSummary) {
        write("# \(summary.line)")
    }
}
