import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// JUnit XML, as CI servers read it: one `<testsuite>` per script, one `<testcase>` per test, with
/// `<failure>` or `<skipped/>`. Written once, when the run ends.
public final class JUnitReporter: ScenarioReporter {
    private let write: (String) -> Void
    private var results: [ScenarioResult] = []

    /// A reporter that writes the document with `write` at the end of the run.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    public func runWillStart(testCount: Int) {}

    public func testDidFinish(_ result: ScenarioResult) {
        results.append(result)
    }

    public func runDidFinish(_ summary: ScenarioSummary) {
        let root = XMLElement(name: "testsuites")
        add(counts: summary, to: root)
        var files: [String] = []
        for result in results where !files.contains(result.file) { files.append(result.file) }
        for file in files {
            let suite = XMLElement(name: "testsuite")
            suite.addAttribute(attribute("name", file))
            var counts = ScenarioSummary()
            for result in results where result.file == file {
                counts.add(result)
                suite.addChild(testcase(result))
            }
            add(counts: counts, to: suite)
            root.addChild(suite)
        }
        let document = XMLDocument(rootElement: root)
        document.version = "1.0"
        document.characterEncoding = "UTF-8"
        write(document.xmlString(options: [.nodePrettyPrint]))
    }

    private func testcase(_ result: ScenarioResult) -> XMLElement {
        let element = XMLElement(name: "testcase")
        element.addAttribute(attribute("name", result.names.last ?? ""))
        element.addAttribute(attribute("classname", ([result.file] + result.names.dropLast()).joined(separator: ".")))
        element.addAttribute(attribute("time", seconds(result.duration)))
        switch result.outcome {
        case .passed:
            break
        case .skipped:
            element.addChild(XMLElement(name: "skipped"))
        case .failed(let message, let traceback):
            let failure = XMLElement(name: "failure", stringValue: [message, traceback].compactMap { $0 }.joined(separator: "\n"))
            failure.addAttribute(attribute("message", message))
            element.addChild(failure)
        }
        return element
    }

    private func add(counts: ScenarioSummary, to element: XMLElement) {
        element.addAttribute(attribute("tests", "\(counts.total)"))
        element.addAttribute(attribute("failures", "\(counts.failed)"))
        element.addAttribute(attribute("errors", "0"))
        element.addAttribute(attribute("skipped", "\(counts.skipped)"))
        element.addAttribute(attribute("time", seconds(counts.duration)))
    }

    private func attribute(_ name: String, _ value: String) -> XMLNode {
        XMLNode.attribute(withName: name, stringValue: value) as! XMLNode
    }

    private func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.6f", value)
    }
}
