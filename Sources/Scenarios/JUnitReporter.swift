import EnvScript
import Foundation
import Locking

/// JUnit XML, as CI servers read it: one `<testsuite>` per script, one `<testcase>` per test, with
/// `<failure>` (an assertion's), `<error>` (any other error, or a hook's) or `<skipped/>`; a script that failed at its top level has one `<testcase>` named
/// `(top level)` with an `<error>`; a run stopped by its time limit ends with a suite `(run)` whose one
/// `<testcase>`, `(stopped)`, has an `<error>` giving the reason. Written once, when the run ends, with a small escaper of its own
/// (``XMLEscaping``), so that the runtime needs no XML library and the document is always well-formed.
package final class JUnitReporter: ScenarioReporter {
    private let write: (String) -> Void
    private var results: [ScenarioResult] = []

    /// A reporter that writes the document with `write` at the end of the run.
    package init(write: @escaping (String) -> Void) {
        self.write = write
    }

    package func runWillStart() {}

    package func testDidFinish(_ result: ScenarioResult) {
        results.append(result)
    }

    package func runDidFinish(_ summary: ScenarioSummary) {
        var files: [String] = []
        for result in results where !files.contains(result.file) { files.append(result.file) }
        var totals = summary
        if summary.stopReason != nil { totals.errored += 1 }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<testsuites\(attributes(counts: totals))>"]
        for file in files {
            var counts = ScenarioSummary()
            var cases: [String] = []
            for result in results where result.file == file {
                counts.add(result)
                cases += testcase(result)
            }
            lines.append("  <testsuite\(attribute("name", file))\(attributes(counts: counts))>")
            lines += cases
            lines.append("  </testsuite>")
        }
        if let reason = summary.stopReason { lines += stopRecord(reason, notRun: summary.notRun) }
        lines.append("</testsuites>")
        write(lines.joined(separator: "\n") + "\n")
    }

    private func testcase(_ result: ScenarioResult) -> [String] {
        let name = if case .errored = result.outcome { Self.topLevelName } else { result.names.last ?? "" }
        let head = "    <testcase"
            + attribute("name", name)
            + attribute("classname", ([result.file] + result.names.dropLast()).joined(separator: "."))
            + attribute("time", seconds(result.duration))
        switch result.outcome {
        case .passed:
            return [head + "/>"]
        case .skipped:
            return [head + ">", "      <skipped/>", "    </testcase>"]
        case .failed(let message, let traceback):
            return [head + ">", "      " + problem("failure", message, traceback), "    </testcase>"]
        case .error(let message, let traceback), .errored(let message, let traceback, _):
            return [head + ">", "      " + problem("error", message, traceback), "    </testcase>"]
        }
    }

    /// A run stopped early (by `--timeout`): a suite of its own, `(run)`, with one errored test case,
    /// `(stopped)`, that says why and how many tests did not run, so that a CI server shows it.
    private func stopRecord(_ reason: String, notRun: Int) -> [String] {
        var counts = ScenarioSummary()
        counts.errored = 1
        let message = "\(reason); \(notRun) test\(notRun == 1 ? "" : "s") not run"
        return [
            "  <testsuite\(attribute("name", Self.runSuiteName))\(attributes(counts: counts))>",
            "    <testcase\(attribute("name", Self.stoppedName))\(attribute("classname", Self.runSuiteName)) time=\"0.000000\">",
            "      " + problem("error", message, nil),
            "    </testcase>",
            "  </testsuite>",
        ]
    }

    /// The suite and test case that stand for a run stopped early.
    static let runSuiteName = "(run)"
    static let stoppedName = "(stopped)"

    /// The name of the test case that stands for a file that failed at its top level.
    static let topLevelName = "(top level)"

    /// `<failure>` or `<error>`: the message as an attribute, with the traceback in the element.
    private func problem(_ element: String, _ message: String, _ traceback: String?) -> String {
        let text = [message, traceback].compactMap { $0 }.joined(separator: "\n")
        return "<\(element)\(attribute("message", message))>\(XMLEscaping.escaped(text))</\(element)>"
    }

    private func attributes(counts: ScenarioSummary) -> String {
        attribute("tests", "\(counts.total)") + attribute("failures", "\(counts.failed)") + attribute("errors", "\(counts.errored)")
            + attribute("skipped", "\(counts.skipped)") + attribute("time", seconds(counts.duration))
    }

    private func attribute(_ name: String, _ value: String) -> String {
        " \(name)=\"\(XMLEscaping.escaped(value, inAttribute: true))\""
    }

    private func seconds(_ duration: Duration) -> String {
        String(format: "%.6f", duration.inSeconds)
    }
}
