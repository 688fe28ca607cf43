import Foundation
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

    static let executableName = "ContainersCrashHelper"

    /// Finds the helper next to the test bundle in the build products folder (where `swift build` and
    /// `swift test` put every executable of the package), or at `ENVSCRIPT_CRASH_HELPER`.
    static func executable() throws -> URL {
        var folders: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["ENVSCRIPT_CRASH_HELPER"] {
            return URL(fileURLWithPath: explicit)
        }
        let runner = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        folders.append(runner.deletingLastPathComponent())
        if let main = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(main.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        // Inside an .xctest bundle (Apple platforms) the products are three levels up.
        folders += folders.map { $0.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
        for folder in folders {
            let candidate = folder.appendingPathComponent(executableName)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HelperMissing(searched: folders.map(\.path))
    }

    struct HelperMissing: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "the \(CrashHelperProcess.executableName) executable was not found in \(searched); build it with `swift build --target \(CrashHelperProcess.executableName)` (swift test builds it too) or set ENVSCRIPT_CRASH_HELPER to its path"
        }
    }
}
