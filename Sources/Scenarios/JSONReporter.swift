import Foundation

/// busted's `json` output: one JSON object written when the run ends, with the lists `successes`,
/// `failures`, `errors` and `pendings` (each test as `{name, message, isError, element: {name,
/// descriptor}, trace: {short_src, currentline, traceback}}`, its `name` the full name) and the
/// `duration` in seconds, so that tools reading busted's report read this one. A file that failed at its
/// top level is an error whose `element.descriptor` is `file`; a run stopped early adds an error named
/// `(stopped)` giving the reason.
package final class JSONReporter: ScenarioReporter {
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

    private struct Element: Encodable {
        var name: String
        var descriptor: String
    }

    private struct Trace: Encodable {
        var short_src: String
        var currentline: Int?
        var traceback: String?
    }

    private struct Entry: Encodable {
        var name: String
        var message: String?
        var isError: Bool?
        var element: Element
        var trace: Trace
    }

    private struct Document: Encodable {
        var successes: [Entry] = []
        var failures: [Entry] = []
        var errors: [Entry] = []
        var pendings: [Entry] = []
        var duration: Double = 0
    }

    package func runDidFinish(_ summary: ScenarioSummary) {
        var document = Document(duration: summary.duration.inSeconds)
        for result in results {
            var entry = Entry(
                name: result.fullName, element: Element(name: result.names.last ?? result.file, descriptor: "it"),
                trace: Trace(short_src: result.file))
            switch result.outcome {
            case .passed:
                document.successes.append(entry)
            case .skipped:
                document.pendings.append(entry)
            case .failed(let message, let traceback):
                document.failures.append(Self.problem(entry, message, traceback, isError: false, in: result.file))
            case .error(let message, let traceback):
                document.errors.append(Self.problem(entry, message, traceback, isError: true, in: result.file))
            case .errored(let message, let traceback, let line):
                entry.name = result.file
                entry.message = message
                entry.isError = true
                entry.element.descriptor = "file"
                entry.trace.traceback = traceback
                entry.trace.currentline = line
                document.errors.append(entry)
            }
        }
        if let reason = summary.stopReason {
            document.errors.append(Entry(
                name: "(stopped)", message: reason + (summary.notRun > 0 ? "; \(summary.notRun) tests not run" : ""),
                isError: true, element: Element(name: "(stopped)", descriptor: "suite"), trace: Trace(short_src: "")))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        write(String(decoding: data, as: UTF8.self))
    }

    /// `entry` as a failure or an error: its message, traceback and the line the message names.
    private static func problem(_ entry: Entry, _ message: String, _ traceback: String?, isError: Bool, in file: String) -> Entry {
        var entry = entry
        entry.message = message
        entry.isError = isError
        entry.trace.traceback = traceback
        entry.trace.currentline = line(of: message, in: file)
        return entry
    }

    /// The line a Lua message (`file.lua:12: ...`) names in `file`.
    private static func line(of message: String, in file: String) -> Int? {
        guard message.hasPrefix(file + ":") else { return nil }
        return Int(message.dropFirst(file.count + 1).prefix { $0.isNumber })
    }
}
