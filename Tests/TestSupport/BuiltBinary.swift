package import Foundation

/// An executable of this package that the tests run as a child process, found where SwiftPM puts
/// every product: next to the test runner.
package enum BuiltBinary {
    /// The binary `name` from the build products folder, or the path in the environment variable
    /// `override` when it is set.
    ///
    /// - Throws: ``Missing`` naming every place looked at and how to build the binary.
    package static func url(named name: String, override: String? = nil) throws -> URL {
        if let override, let explicit = ProcessInfo.processInfo.environment[override] {
            return URL(fileURLWithPath: explicit)
        }
        var folders = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let candidates = folders.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Missing(name: name, override: override, searched: candidates.map(\.path))
        }
        return found
    }

    /// A binary the tests run was not built.
    package struct Missing: Error, CustomStringConvertible {
        package var name: String
        package var override: String?
        package var searched: [String]

        package var description: String {
            let orSet = override.map { " or set \($0) to its path" } ?? ""
            return "the \(name) executable was not found at \(searched); build it with `swift build --product \(name)` (swift test builds it too)\(orSet)"
        }
    }
}
