import Foundation

/// Where a scenario report goes: standard output as it is written, or a file written at the end.
final class ReportOutput {
    private let path: String?
    private var buffered: [String] = []

    init(path: String?) {
        self.path = path
    }

    /// Writes one line (or block) of the report.
    func write(_ text: String) {
        if path == nil {
            print(text)
        } else {
            buffered.append(text)
        }
    }

    /// Saves the report to its file (atomically), when it has one.
    func finish() throws {
        guard let path else { return }
        let text = buffered.joined(separator: "\n") + "\n"
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CommandFailure.usage("cannot write the report to '\(path)': \(error.localizedDescription)")
        }
    }
}
