import Foundation
import TestSupport
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
    /// unless given, reading its output and errors at once; a run past `timeout` seconds is killed and
    /// fails the test.
    static func run(
        _ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
        binary name: String = "envscript", timeout: Double = 300
    ) throws -> Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "ENVSCRIPT_HOME")
        environment.merge(extra) { $1 }
        let outcome = try ChildProcess.run(try binary(named: name), arguments, in: directory, environment: environment, timeout: timeout)
        return Outcome(status: outcome.status, standardOutput: outcome.standardOutput, standardError: outcome.standardError)
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
