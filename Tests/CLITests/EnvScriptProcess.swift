import Foundation
import Testing

/// Runs the built `envscript` binary in a folder and captures what it prints.
struct EnvScriptProcess {
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The binary built next to the test bundle (SwiftPM puts both in the same products folder),
    /// or for `envscript` the one named by `ENVSCRIPT_BINARY`.
    static func binary(named name: String = "envscript") throws -> URL {
        if name == "envscript", let explicit = ProcessInfo.processInfo.environment["ENVSCRIPT_BINARY"] {
            return URL(fileURLWithPath: explicit)
        }
        let candidates = [
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw BinaryMissing(searched: candidates.map(\.path))
        }
        return found
    }

    struct BinaryMissing: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "a binary the tests run was not built; run `swift build` first (looked at \(searched))"
        }
    }

    /// Runs `envscript arguments...` (or another built binary) in `directory` with `ENVSCRIPT_HOME` unset
    /// unless given. Its output goes through files in `outputFolder` (by default `directory`).
    static func run(
        _ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
        binary name: String = "envscript", outputFolder: URL? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = try binary(named: name)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "ENVSCRIPT_HOME")
        environment.merge(extra) { $1 }
        process.environment = environment
        // Files rather than pipes: a full pipe could block the child while we wait for it.
        let outputURL = (outputFolder ?? directory).appendingPathComponent(".stdout-\(UUID().uuidString)")
        let errorURL = (outputFolder ?? directory).appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
            standardError: try String(contentsOf: errorURL, encoding: .utf8))
    }
}

/// A temporary folder holding files for one test, removed when the test ends.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` to `name` inside the folder (creating subfolders) and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func run(_ arguments: String..., environment: [String: String] = [:]) throws -> EnvScriptProcess.Outcome {
        try EnvScriptProcess.run(arguments, in: url, environment: environment)
    }
}
