package import Foundation

/// A fresh folder under the system's temporary directory, removed by `remove()`.
package struct TemporaryFolder: Sendable {
    /// The folder.
    package let url: URL

    /// Makes a folder named after the test (`label`, by default the calling function) and `prefix`.
    package init(_ label: String = #function, prefix: String = "EnvScriptTests") throws {
        let name = "\(prefix)-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` inside the folder and returns its URL.
    @discardableResult
    package func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Removes the folder and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
