import Foundation
import TestSupport

extension ChildProcess {
    /// The address `envscript ui` printed (`Open http://127.0.0.1:PORT/?token=…`), once it has; nil
    /// when the process ended first or printed none within a minute.
    func printedPanelAddress() async throws -> URL? {
        for _ in 0..<3000 {
            if let line = standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("Open ") }) {
                return URL(string: String(line.dropFirst("Open ".count)))
            }
            if !process.isRunning { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
