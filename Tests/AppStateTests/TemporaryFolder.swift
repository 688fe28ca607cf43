import Foundation

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init(_ label: String = #function) throws {
        let name = "AppStateTests-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
