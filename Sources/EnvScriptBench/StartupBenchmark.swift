import Foundation

/// How long `envscript` takes to start and end: `--version`, `run` of a hello script (a fresh
/// temporary home made and removed included), and a worker of `run --jobs` (what each worker costs
/// before its first file: its host opened, the scenario prelude loaded, told ready), against a Swift program that prints with Foundation
/// built by scripts/bench in the same run — with `swiftc -O` as anyone would, and with
/// `-static-stdlib` as envscript is.
///
/// Each program is spawned and waited for, in alternation, many times; the figure is the median wall
/// time of one process (less disturbed by the machine than the mean, and unlike the best not one lucky
/// run). The paths come from scripts/bench: `ENVSCRIPT_BENCH_BINARY`, `ENVSCRIPT_BENCH_HELLO`,
/// `ENVSCRIPT_BENCH_HELLO_STATIC`.
enum StartupBenchmark {
    static let runs = 200
    static let warmups = 10

    static func run(_ report: BenchReport) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let envscript = environment["ENVSCRIPT_BENCH_BINARY"], let hello = environment["ENVSCRIPT_BENCH_HELLO"],
              let helloStatic = environment["ENVSCRIPT_BENCH_HELLO_STATIC"]
        else {
            throw BenchFailure("the startup group needs ENVSCRIPT_BENCH_BINARY, ENVSCRIPT_BENCH_HELLO and ENVSCRIPT_BENCH_HELLO_STATIC; run it through scripts/bench")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-startup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("hello.lua")
        try "print('hello from Lua')\n".write(to: script, atomically: true, encoding: .utf8)
        let spec = folder.appendingPathComponent("hello_spec.lua")
        try "describe('hello', function() it('says hello', function() end) end)\n".write(to: spec, atomically: true, encoding: .utf8)

        let commands: [(name: String, arguments: [String])] = [
            ("hello_foundation", [hello]),
            ("hello_foundation_static", [helloStatic]),
            ("envscript_version", [envscript, "--version"]),
            ("envscript_run_hello", [envscript, "run", "--no-init", script.path]),
            // A worker is told its run's process (this one) and ends when its requests do: here at once.
            ("envscript_run_worker", [envscript, "run", "--worker-of", "\(getpid())", "--no-init", spec.path]),
        ]
        benchProgress("startup", "\(runs) runs of each program, in alternation")
        var times = Array(repeating: [Double](), count: commands.count)
        for round in 0..<(warmups + runs) {
            for (index, command) in commands.enumerated() {
                let elapsed = try wallTime(command.arguments, in: folder)
                if round >= warmups { times[index].append(elapsed) }
            }
        }
        let medians = times.map { $0.sorted()[$0.count / 2] / 1e6 }
        for (index, command) in commands.enumerated() {
            report.figure("startup.\(command.name)", medians[index], "ms")
        }
        report.ratio("startup.run_hello_vs_foundation_hello", medians[3], over: medians[0], target: 1.5)
        report.ratio("startup.version_vs_foundation_hello", medians[2], over: medians[0], target: 1.5)
        report.ratio("startup.worker_vs_foundation_hello", medians[4], over: medians[0], target: 1.5)
        // No target: against a program with nothing to load but Foundation, itself linked in.
        report.figure("startup.run_hello_vs_static_foundation_hello", medians[3] / medians[1], "x")
    }

    /// Nanoseconds from spawning `arguments` (input from and output to /dev/null) to its end; a failure
    /// is an error.
    private static func wallTime(_ arguments: [String], in folder: URL) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var status: Int32 = 0
        let elapsed = try nanoseconds {
            let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
            guard spawned == 0 else { throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        guard status == 0 else { throw BenchFailure("\(arguments.joined(separator: " ")) ended with wait status \(status)") }
        return elapsed
    }
}
