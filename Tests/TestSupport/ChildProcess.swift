package import Foundation
package import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A program run by a test as a child process, with what it prints captured.
///
/// ``run(_:_:in:environment:timeout:sourceLocation:)`` runs one to its end; ``init(_:_:in:environment:)``
/// starts one that goes on in the background while the test does something else (shares its home,
/// sends it signals) and ends with ``wait(seconds:sourceLocation:)``. Standard output and standard
/// error go to files, read whenever the test asks, so a child never blocks on a full pipe; a child
/// that outlives its time is killed and fails the test instead of hanging the suite.
package final class ChildProcess: @unchecked Sendable {
    /// How a program ended and what it printed.
    package struct Outcome: Sendable {
        package var status: Int32
        package var standardOutput: String
        package var standardError: String
    }

    /// The running process (set up before ``init(_:_:in:environment:)`` returns, read-only after).
    package let process = Process()
    private let outputURL: URL
    private let errorURL: URL

    /// Starts `executable` with `arguments` in `directory` with exactly `environment`; its standard
    /// input is empty.
    package init(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        let captures = FileManager.default.temporaryDirectory
        outputURL = captures.appendingPathComponent("child-stdout-\(UUID().uuidString)")
        errorURL = captures.appendingPathComponent("child-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// A child still running when the test lets go of it is killed.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
    }

    /// Runs `executable` to its end and returns how it ended; past `timeout` seconds it is killed and
    /// the test fails.
    package static func run(
        _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String],
        timeout: Double = 300, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        try ChildProcess(executable, arguments, in: directory, environment: environment)
            .wait(seconds: timeout, sourceLocation: sourceLocation)
    }

    package var pid: Int32 { process.processIdentifier }

    /// Lowers the child's CPU priority (nice 10) for a child that spins until the test signals it — a
    /// Lua loop waiting for its Ctrl-C. Without it, a few such children kept both cores of a small machine
    /// busy while the tests that were to signal them waited for a thread of Swift's pool, which other
    /// tests held waiting for children of their own, slowed by the spinning ones: a whole run stalled
    /// for minutes. At nice 10 a spinning child still runs, but gives way to every other program.
    package func yieldsTheProcessor() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), 10)
    }

    /// What it printed on standard output so far.
    package var standardOutput: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    /// What it printed on standard error so far.
    package var standardError: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process.
    package func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end, at most `seconds`; past that it is killed and the test fails.
    @discardableResult
    package func wait(seconds: Double = 120, sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            let name = process.executableURL?.lastPathComponent ?? "child"
            Issue.record("\(name) \(process.arguments ?? []) did not end within \(seconds) s; killed", sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, standardOutput: standardOutput, standardError: standardError)
    }

    /// Waits until `path` exists (a child's "I am here" mark), at most `seconds`; past that the test fails.
    package static func waitForFile(_ path: String, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: path) && Date() < deadline { usleep(10_000) }
        if !FileManager.default.fileExists(atPath: path) {
            Issue.record("\(path) did not appear within \(seconds) s", sourceLocation: sourceLocation)
        }
    }
}
