import Foundation
import TestSupport
import Testing

/// Runs the built `envscript` binary (or another of the package's executables) in a folder with
/// `ENVSCRIPT_HOME` unset unless given, and captures what it prints.
enum EnvScriptProcess {
    typealias Outcome = ChildProcess.Outcome

    /// The binary built next to the test runner, or for `envscript` the one named by `ENVSCRIPT_BINARY`.
    static func binary(named name: String = "envscript") throws -> URL {
        try BuiltBinary.url(named: name, override: name == "envscript" ? "ENVSCRIPT_BINARY" : nil)
    }

    /// Runs `envscript arguments...` (or another built binary) in `directory` to its end; a run past
    /// `timeout` seconds is killed and fails the test.
    static func run(
        _ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
        binary name: String = "envscript", timeout: Double = 300
    ) throws -> Outcome {
        try ChildProcess.run(try binary(named: name), arguments, in: directory, environment: environment(extra), timeout: timeout)
    }

    /// Starts `envscript arguments...` (or another built binary) in `directory`, running in the
    /// background while the test goes on: for processes that share a home at once, and for signals.
    static func start(
        _ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
        binary name: String = "envscript"
    ) throws -> ChildProcess {
        try ChildProcess(try binary(named: name), arguments, in: directory, environment: environment(extra))
    }

    /// This process's environment without `ENVSCRIPT_HOME`, with `extra` added.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "ENVSCRIPT_HOME")
        environment.merge(extra) { $1 }
        return environment
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
        try run(arguments, environment: environment)
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> EnvScriptProcess.Outcome {
        try EnvScriptProcess.run(arguments, in: url, environment: environment)
    }

    /// Runs the `sh` command line `command` in the folder, with `$ENVSCRIPT` naming the built binary:
    /// for arguments a Swift string cannot hold, such as bytes that are not UTF-8
    /// (`"$ENVSCRIPT" container create "$(printf 'a\\377')"`).
    func run(shell command: String) throws -> EnvScriptProcess.Outcome {
        try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: url,
            environment: EnvScriptProcess.environment(["ENVSCRIPT": try EnvScriptProcess.binary().path]))
    }

    /// Runs `envscript arguments...` with its standard output sent to `path` (a shell's `>`), such as
    /// `/dev/full`; the outcome's standard output is then empty.
    func run(_ arguments: [String], standardOutputTo path: String) throws -> EnvScriptProcess.Outcome {
        let shell = ["-c", #"target="$1"; shift; exec "$@" > "$target""#, "sh", path, try EnvScriptProcess.binary().path]
        return try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), shell + arguments, in: url, environment: EnvScriptProcess.environment([:]))
    }
}
