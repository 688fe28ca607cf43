import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `ContainersCrashHelper` executable, run as a child process that switches a home and may be
/// killed at any moment.
struct CrashHelperProcess {
    /// How a run ended and what it printed.
    struct Outcome {
        let killed: Bool
        let exitStatus: Int32
        let output: String
        let errors: String

        /// Switches this run made ("+" lines) after those already read with ``readLine()``.
        var switches: Int { output.split(separator: "\n").filter { $0 == "+" }.count }
    }

    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts the helper with `arguments` and, when given, `ENVSCRIPT_CRASH_AT=crashAt`.
    init(_ arguments: [String], crashAt: String? = nil) throws {
        process.executableURL = try Self.executable()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ENVSCRIPT_CRASH_AT"] = crashAt
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Writes `line` and a newline to the helper's standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Blocks until the helper printed a whole line, and returns it; nil when its output ended. Reads
    /// byte by byte so that nothing later is consumed.
    func readLine() -> String? {
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == Data("\n".utf8) { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the end of the run and collects the rest of its output.
    func finish() -> Outcome {
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            killed: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
            exitStatus: process.terminationStatus,
            output: String(decoding: printed, as: UTF8.self),
            errors: String(decoding: complaints, as: UTF8.self))
    }

    /// Runs the helper to its end.
    static func run(_ arguments: [String], crashAt: String? = nil) throws -> Outcome {
        try CrashHelperProcess(arguments, crashAt: crashAt).finish()
    }

    /// The helper from the build products folder, or at `ENVSCRIPT_CRASH_HELPER`.
    static func executable() throws -> URL {
        try BuiltBinary.url(named: "ContainersCrashHelper", override: "ENVSCRIPT_CRASH_HELPER")
    }
}
