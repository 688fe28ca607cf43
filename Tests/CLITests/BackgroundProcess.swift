import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A built binary running in the background while the test goes on: for processes that share a home
/// at the same moment, and for signals.
final class BackgroundProcess: @unchecked Sendable {
    let process = Process()
    private let outputURL: URL
    private let errorURL: URL

    /// Starts `envscript arguments...` (or another built binary) in `directory`.
    init(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:], binary name: String = "envscript") throws {
        process.executableURL = try EnvScriptProcess.binary(named: name)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "ENVSCRIPT_HOME")
        environment.merge(extra) { $1 }
        process.environment = environment
        outputURL = directory.appendingPathComponent(".bg-stdout-\(UUID().uuidString)")
        errorURL = directory.appendingPathComponent(".bg-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
    }

    var pid: Int32 { process.processIdentifier }

    /// What it printed so far.
    var standardOutput: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end, at most `seconds`; on timeout it is killed and the test fails.
    @discardableResult
    func wait(seconds: Double = 120, sourceLocation: SourceLocation = #_sourceLocation) -> EnvScriptProcess.Outcome {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            Issue.record("process \(process.arguments ?? []) did not end within \(seconds) s; killed", sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return EnvScriptProcess.Outcome(status: process.terminationStatus, standardOutput: standardOutput, standardError: standardError)
    }

    /// Waits until `path` exists (a script's "I am here" mark), at most `seconds`.
    static func waitForFile(_ path: String, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: path) && Date() < deadline { usleep(10_000) }
        if !FileManager.default.fileExists(atPath: path) {
            Issue.record("\(path) did not appear within \(seconds) s", sourceLocation: sourceLocation)
        }
    }
}
