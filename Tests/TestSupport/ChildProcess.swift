import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end and captures what it prints: standard output and standard error are
/// read at the same time, each on a thread of its own (a child that fills one pipe while the test
/// waits on the other would otherwise hang), and a child that outlives `timeout` is killed and fails
/// the test instead of hanging the suite.
public enum ChildProcess {
    /// How a program ended and what it printed.
    public struct Outcome: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// Runs `executable` with `arguments` in `directory` with `environment`.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String],
        timeout: Double = 300, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = Collected()
        let errorData = Collected()
        let readers = DispatchGroup()
        for (pipe, collected) in [(output, outputData), (error, errorData)] {
            DispatchQueue.global().async(group: readers) {
                collected.set(pipe.fileHandleForReading.readDataToEndOfFile())
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            Issue.record("\(executable.lastPathComponent) \(arguments) did not end within \(timeout) s; killed", sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        readers.wait()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData.data, as: UTF8.self),
            standardError: String(decoding: errorData.data, as: UTF8.self))
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        func set(_ data: Data) { lock.withLock { bytes = data } }
        var data: Data { lock.withLock { bytes } }
    }
}
