import EnvScript
import Foundation
import LuaBridge
import Scenarios

extension RunCommand {
    /// How many worker processes run `plan`: one (this process) for plain scripts (they share one
    /// state, a later one using what an earlier one set), `--list`, `--watch`, `--home` (one home) and a
    /// worker itself; otherwise `--jobs`, by default the number of cores — or one when a file uses
    /// busted's `expose` (its globals reach the files after it) — at most one a file.
    func jobCount(for plan: Plan) -> Int {
        if worker || list || watch || runtime.home != nil || plan.files.count < 2 { return 1 }
        guard plan.isProject || plan.files.allSatisfy(ScenarioRunner.isSpecFile) else { return 1 }
        if let jobs { return min(jobs, plan.files.count) }
        if let exposing = plan.files.first(where: Self.usesExpose) {
            printError("envscript: \(exposing) uses expose, whose globals reach the files after it: the files run in one process (give --jobs N to run them apart)")
            return 1
        }
        return min(ProcessInfo.processInfo.activeProcessorCount, plan.files.count)
    }

    /// Whether the file's text names busted's `expose` (a word of its own).
    private static func usesExpose(_ file: String) -> Bool {
        guard let text = FileManager.default.contents(atPath: file) else { return false }
        return String(decoding: text, as: UTF8.self).contains(/(^|[^A-Za-z0-9_.:])expose([^A-Za-z0-9_]|$)/)
    }

    /// Runs `plan`'s files in `jobs` worker processes (``JobCoordinator``): the same report, in file
    /// order, as one process writes, the same exit status.
    func runInParallel(_ plan: Plan, jobs: Int, interruption: RunInterruption) throws {
        // A worker that has ended must not end the run as it is written to.
        signal(SIGPIPE, SIG_IGN)
        let report = try ReportOutput(path: output)
        let seed = shuffleSeed()
        if let seed { printError("envscript: tests shuffled with --seed \(seed)") }
        var files = plan.files
        if let seed {
            // The order one process runs them in (runFiles shuffles the same way).
            var generator = SeededRandomNumberGenerator(seed: seed)
            files.shuffle(using: &generator)
        }
        // The worker's own options right after `run`, before any `--` the command line has (past it,
        // every word is a file).
        var arguments = Array(CommandLine.arguments.dropFirst())
        let afterRun = (arguments.firstIndex(of: "run") ?? -1) + 1
        arguments.insert(contentsOf: ["--worker-of", String(getpid())] + (seed.map { ["--seed", String($0)] } ?? []), at: afterRun)
        let reporter = reportFormat.reporter(write: report.write)
        var summary = ScenarioSummary()
        let coordinator = JobCoordinator(files: files, workerArguments: arguments, jobs: jobs, failFast: failFast)
        try coordinator.start()
        // While the workers start: a file that does not compile ends the run before any test runs, with
        // the message one process gives.
        do {
            let lua = try LuaState(options: LuaOptions(memoryLimit: nil, instructionLimit: nil))
            defer { try? lua.close() }
            for file in files { _ = try ScriptFile.compile(atPath: file, in: lua) }
            if let helper = plan.helper { _ = try ScriptFile.compile(atPath: helper, in: lua) }
        } catch {
            coordinator.abandon()
            throw error
        }
        // The report starts with the first file's output or result: a run that cannot start (a file
        // that does not compile) writes none, as one process does.
        var started = false
        func start() {
            guard !started else { return }
            started = true
            if reportFormat == .pretty { report.write(runtime.startupScriptsLine(forFiles: plan.files)) }
            reporter.runWillStart()
        }
        let outcome = try coordinator.run(
            interruption: interruption,
            print: { output, errorOutput in
                start()
                Self.write(output, to: STDOUT_FILENO)
                Self.write(errorOutput, to: STDERR_FILENO)
            },
            deliver: { result in
                start()
                summary.add(result)
                reporter.testDidFinish(result)
            })
        // Nothing could run (a file that does not compile, a helper that fails): as one process ends.
        if let fatal = outcome.fatal { throw CommandFailure(message: fatal.message, status: fatal.status) }
        start()
        summary.notRun = outcome.notRun
        summary.stopReason = interruption.isStopped ? "stopped by \(interruption.label)" : outcome.stopReason
        reporter.runDidFinish(summary)
        try report.finish()
        if plan.coverage, let problem = writeCoverage(outcome.coverage) { throw CommandFailure.usage(problem) }
        if summary.hasFailures { throw CommandFailure(message: "", status: ExitStatus.failure) }
    }

    /// Writes a file's captured output where this process's own goes, after what the report wrote.
    private static func write(_ data: Data, to descriptor: Int32) {
        guard !data.isEmpty else { return }
        fflush(nil)
        try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
    }
}
