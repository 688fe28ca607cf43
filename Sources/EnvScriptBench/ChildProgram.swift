import Foundation

/// A program the benchmarks run as a child process and time from the outside: `envscript` against
/// the tools it is compared with (stock `lua5.4`, `busted`).
struct ChildProgram {
    /// The program's path and its arguments.
    var arguments: [String]

    /// The program found on `PATH` as `name`; a missing one is an error telling how to install it.
    static func installed(_ name: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchFailure("'\(name)' is not installed, and this benchmark measures envscript against it: run scripts/bootstrap (it installs \(package))")
    }

    /// What one run gave: its exit status, its standard output, and its wall time.
    struct Run {
        var status: Int32
        var output: String
        var nanoseconds: Double
    }

    /// Runs the program in `folder`, standard output to a file read afterwards (so a pipe's buffer
    /// never stalls the child), standard error to `errorLog`; returns the exit status and the time from
    /// start to exit.
    func run(in folder: URL, errorLog: URL) throws -> Run {
        let outputFile = folder.appendingPathComponent("stdout-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        guard FileManager.default.createFile(atPath: outputFile.path, contents: nil),
              FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        else { throw BenchFailure("cannot create the output files of \(arguments[0]) in \(folder.path)") }
        let output = try FileHandle(forWritingTo: outputFile)
        let errors = try FileHandle(forWritingTo: errorLog)
        defer {
            try? output.close()
            try? errors.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        let elapsed = try nanoseconds {
            do {
                try process.run()
            } catch {
                throw BenchFailure("cannot start \(arguments[0]): \(error)")
            }
            process.waitUntilExit()
        }
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        // The exit status, or 128 + the signal that ended it, as a shell reports it.
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return Run(status: status, output: text, nanoseconds: elapsed)
    }

    /// Runs the program and fails, with the end of its standard error, unless it exits with 0.
    func runChecked(in folder: URL, what: String) throws -> Run {
        let errorLog = folder.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: errorLog) }
        let run = try run(in: folder, errorLog: errorLog)
        guard run.status == 0 else {
            let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            let tail = (errors.isEmpty ? run.output : errors).split(separator: "\n").suffix(8).joined(separator: "\n")
            throw BenchFailure("\(what): `\(arguments.joined(separator: " "))` ended with status \(run.status):\n\(tail)")
        }
        return run
    }
}

/// A new temporary folder for a benchmark group; the group removes it when done.
func benchFolder(_ group: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-\(group)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
