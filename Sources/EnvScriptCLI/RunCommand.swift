import ArgumentParser
import EnvScript
import Scenarios
import Foundation
import LuaBridge

/// `envscript run FILE...`: runs scripts in the sandbox, in order, in one Lua state.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        // Parsed alone first (CommandLineParsing): its usage then still reads `envscript run`.
        _superCommandName: "envscript",
        abstract: "Run Lua scripts and busted-style scenarios in the sandbox; with no file, the busted project here.",
        discussion: """
            Scripts run in order in one Lua state, after the start-up scripts. Scripts may declare \
            busted-style scenarios (describe, it, pending, setup, teardown, lazy_setup, before_each, \
            after_each, finally, insulate, expose) checked with luassert's assert, spy, stub, mock and \
            match. As in busted, a block's body runs when the run reaches it, after the tests before it. \
            Without --home each run gets a fresh temporary home, removed afterwards.

            A busted project runs as it is: with no file, or a folder, envscript run finds the spec files \
            as busted does (under spec/, or the ROOT of the project's .busted; files named like \
            --pattern, _spec by default, in every subfolder), reads the task of .busted (--run TASK, \
            else default) with its pattern, lpath, helper, tags, output, shuffle, seed and repeat, puts \
            busted's module path (./src/?.lua;./src/?/?.lua;./src/?/init.lua, or --lpath) before \
            package.path, and sets the global arg. What the specs need beyond the sandbox the project \
            grants in its .busted: envscript = { allow = { 'io' }, ['allow-read'] = { ... }, \
            ['test-timeout'] = 60 } (busted ignores that table); the command line adds to it.

            Each stage of a run — a file's top level, a block's body, each hook, each test — may take \
            --test-timeout seconds (30 by default); no instruction budget applies unless \
            --instruction-limit is given. A stage stopped by a limit names the limit and how to raise it.

            A file that fails at its top level (an error outside any test) does not stop the others: \
            in a run with scenarios it is reported as an errored file (ERROR in the pretty report, \
            not ok in TAP, <error> in JUnit); a plain script's error and traceback go to standard error.

            Ctrl-C (or SIGTERM) stops the run: the test running is reported as an error, the others as \
            not run, the report is written and the temporary home removed; a second Ctrl-C ends it at once.

            Exit status: 0 all passed; 1 a scenario failed, a file errored, a plain script raised an \
            error, or the stored state could not be saved at the end; 2 usage errors, a script that cannot \
            be read or compiled, a .busted that cannot be used, no spec file found, or a report that \
            cannot be written; 130 (143 for SIGTERM) a run Ctrl-C stopped.
            """)

    @OptionGroup var runtime: RuntimeOptions

    @OptionGroup(title: "Busted projects") var project: BustedProjectOptions

    @Argument(help: ArgumentHelp(
        "The Lua scripts to run, or folders to find spec files in.",
        discussion: "Default: the ROOT of the project's .busted, else spec.", valueName: "file-or-folder"))
    var files: [String] = []

    @Option(help: ArgumentHelp("How to report scenarios: pretty, tap, junit or json.", discussion: "Default: pretty, or the output of the project's .busted."))
    var format: ReportFormat?

    /// The format the report is written in.
    var reportFormat: ReportFormat { format ?? .pretty }

    @Option(name: [.short, .long], help: ArgumentHelp(
        "Write the scenario report to this file instead of standard output; or, as busted's -o, a format's name (utfTerminal, plainTerminal, TAP, junit, json).",
        valueName: "file-or-format"))
    var output: String?

    @Option(help: ArgumentHelp("Run only the scenarios whose full name contains this text.", valueName: "text"))
    var filter: String?

    @Option(name: [.short, .long], help: ArgumentHelp(
        "Run only tests tagged with one of these (#tag in the name of a test or of a block around it); comma-separated, repeatable.",
        valueName: "tags"))
    var tags: [String] = []

    @Option(help: ArgumentHelp("Run no test tagged with one of these; comma-separated, repeatable.", valueName: "tags"))
    var excludeTags: [String] = []

    @Flag(help: "Run the files, and the tests of each block, in a shuffled order; the seed is printed on standard error.")
    var shuffle = false

    @Option(help: ArgumentHelp("The seed of --shuffle (implies it), to run a shuffled order again.", valueName: "n"))
    var seed: UInt64?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Run the selected tests this many times, one pass after another.", valueName: "n"))
    var repetitions = 1

    @Flag(name: [.short, .long], help: "List the selected tests (file, then full name) instead of running them.")
    var list = false

    @Flag(help: "Stop at the first test that fails; the rest are counted as not run.")
    var failFast = false

    @Option(help: ArgumentHelp(
        "Stop the run after this many seconds: the test that was running fails, the rest do not run, the report is written and the exit status is 1.",
        valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp(
        "Fail a stage of the run — a file's top level, a block's body, a hook, a test — that runs longer than this many seconds (0: no limit); the other tests still run.",
        discussion: "Default: 30.", valueName: "seconds"))
    var testTimeout: Double?

    /// The per-stage limit when `--test-timeout` is not given: it stops a runaway test (no instruction
    /// budget applies by default), not an honest slow one.
    static let defaultTestTimeout: Double = 30

    @Flag(help: "Run again whenever a script given or a start-up script changes, clearing the screen before each report; Ctrl-C stops.")
    var watch = false

    @Option(name: [.short, .long], help: ArgumentHelp(
        "Run the spec files in this many worker processes at once, each with a temporary home of its own (1: all in this process).",
        discussion: "Default: the number of cores. Only spec files run apart (a project's, or files named *_spec.lua); plain scripts, --list, --watch and --home run in one process.",
        valueName: "n"))
    var jobs: Int?

    // Plain types (String, Int), whose options the command already has: each new type of option costs
    // the start-up of every run a look-up of its conformances.
    @Option(name: .customLong("shard"), help: ArgumentHelp(
        "Run only the K-th of N shares of the spec files (1/3, 2/3, 3/3 on three CI machines run each file once).",
        discussion: "The split is by file, the K-th of every N in the order the files are found: the same on every machine and every run.",
        valueName: "k/n"))
    var shardGiven: String?

    /// `--shard`, read.
    var shard: RunShard? { shardGiven.flatMap { try? RunShard.parse($0) } }

    /// Set in the worker processes of `--jobs` to the run's pid: the files come from the run on
    /// standard input.
    @Option(help: .hidden)
    var workerOf: Int?

    /// Whether this process is a worker of a run with `--jobs`.
    var worker: Bool { workerOf != nil }

    mutating func validate() throws {
        // busted's -o names a format; any other value is the report's file.
        if let output, let named = ReportFormat(outputName: output) {
            if let format, format != named {
                throw ValidationError("--format \(format.rawValue) and -o \(output) name two formats; give one")
            }
            format = named
            self.output = nil
        } else if let output, ReportFormat.bustedHandlersWithoutCounterpart.contains(output.lowercased()) {
            throw ValidationError("-o \(output): busted's \(output) output has no counterpart in envscript; use -o utfTerminal, TAP, junit or json (or --output FILE for a report file)")
        }
        if let shardGiven { _ = try RunShard.parse(shardGiven) }
        if let jobs, !(1...256).contains(jobs) {
            throw ValidationError("--jobs must be a whole number from 1 to 256, not \(jobs)")
        }
        if let jobs, jobs > 1, runtime.home != nil {
            throw ValidationError("--home runs every file in one home, which --jobs \(jobs) would share between processes; give --jobs 1, or leave --home out (each worker then has a temporary home of its own)")
        }
        if let timeout { try RuntimeOptions.validateSeconds(timeout, option: "--timeout") }
        if let testTimeout { try RuntimeOptions.validateSeconds(testTimeout, option: "--test-timeout", zeroTurnsItOff: true) }
        guard (1...1_000_000).contains(repetitions) else {
            throw ValidationError("--repeat must be a whole number from 1 to 1000000, not \(repetitions)")
        }
        for tag in Self.tagSet(tags + excludeTags) where tag.isEmpty || tag.contains(where: \.isWhitespace) {
            throw ValidationError("a tag is a word without spaces (--tags slow,login), not '\(tag)'")
        }
    }

    /// Tags as given: comma-separated, with or without their `#`.
    private static func tagSet(_ values: [String]) -> Set<String> {
        Set(values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { part in
            let word = part.trimmingCharacters(in: .whitespaces)
            return word.hasPrefix("#") ? String(word.dropFirst()) : word
        })
    }

    /// The tests to run: filter, tags, fail-fast and repetitions.
    var selection: ScenarioSelection {
        ScenarioSelection(
            filter: filter, tags: Self.tagSet(tags), excludedTags: Self.tagSet(excludeTags), failFast: failFast,
            repetitions: repetitions)
    }

    /// The shuffle's seed: the one given, a new one with --shuffle, none otherwise.
    func shuffleSeed() -> UInt64? {
        if let seed { return seed }
        return shuffle ? UInt64.random(in: 1...UInt64(UInt32.max)) : nil
    }

    /// The run's limits, counted from now; Ctrl-C (or SIGTERM) stops the run as its limit would.
    private func timeLimits(interruption: RunInterruption, testTimeoutLabel: String) -> ScenarioTimeLimits {
        let perTest = testTimeout ?? Self.defaultTestTimeout
        var limits = ScenarioTimeLimits(
            run: timeout.map { .seconds($0) }, runLabel: "--timeout",
            perTest: perTest == 0 ? nil : .seconds(perTest), perTestLabel: testTimeoutLabel)
        // From the moment the signal arrives, not from when a thread hears of it.
        limits.isStopped = { interruption.isStopped }
        limits.stopLabel = { interruption.label }
        return limits
    }

    func run() throws {
        let interruption = RunInterruption(announcesStop: !worker)
        let signals = interruption.handleSignals()
        defer { signals.cancel() }
        guard watch else { return try runStoppable(interruption) }
        // The project is read once a pass: the files watched are those the pass runs (and .busted's
        // warnings are said once).
        var planned: Result<(command: RunCommand, plan: Plan), any Error> = .failure(CancellationError())
        try ScenarioWatchLoop(
            files: {
                planned = Result { try self.planned() }
                return watchedFiles(for: try? planned.get().plan)
            },
            interruption: interruption,
            pass: {
                let (command, plan) = try planned.get()
                try command.run(plan, interruption: interruption)
            }
        ).run()
    }

    /// What watch mode watches: the files of `plan` (the files named when the project could not be
    /// read), the project's `.busted`, the helper and the start-up scripts.
    private func watchedFiles(for plan: Plan?) -> [String] {
        let files = plan?.files ?? self.files
        return files + [project.configFile ?? ".busted"] + (plan?.helper.map { [$0] } ?? [])
            + runtime.watchedStartupPaths(forFiles: files)
    }

    /// The command with the project's `.busted` applied, and what it runs.
    private func planned() throws -> (command: RunCommand, plan: Plan) {
        var command = self
        let plan = try command.plan()
        return (command, plan)
    }

    /// One run that Ctrl-C or SIGTERM may stop: the run ends as at any end (its report written, its
    /// temporary home removed), then with status 128 + the signal's number, whatever its tests did.
    private func runStoppable(_ interruption: RunInterruption) throws {
        var failure: CommandFailure?
        do {
            try runOnce(interruption: interruption)
        } catch {
            failure = ErrorReport.failure(for: error)
        }
        if let status = interruption.exitStatus { throw CommandFailure(message: failure?.message ?? "", status: status) }
        if let failure { throw failure }
    }

    /// One run: the project's `.busted` read and the files found afresh, then run.
    private func runOnce(interruption: RunInterruption) throws {
        let (command, plan) = try planned()
        try command.run(plan, interruption: interruption)
    }

    /// Sets up what busted gives every spec before anything runs: its module path before
    /// `package.path`, and the global `arg` (the command line after `run`, `arg[0]` the program).
    private static func prepare(_ host: EnvScriptHost, modulePath: String) {
        let arguments = CommandLine.arguments
        let after = arguments.firstIndex(of: "run").map { arguments[($0 + 1)...] } ?? []
        var fields: [LuaValue: LuaValue] = [.integer(0): .string(arguments.first ?? "envscript")]
        for (index, argument) in after.enumerated() { fields[.integer(index + 1)] = .string(argument) }
        let setUp = """
            local module_path, arguments = ...
            if module_path ~= '' and rawget(_G, 'package') then
              package.path = (module_path .. ';' .. package.path):gsub(';;', ';')
            end
            arg = arguments
            """
        _ = try? host.lock.withLock {
            try host.lua.execute(setUp, chunkName: "=[envscript]/run", arguments: [.string(modulePath), .table(LuaTable(fields: fields))])
        }
    }

    /// Writes the coverage files of a run (``CoverageReport``) from the lines `counted`, and says where on
    /// standard error; the problem when they cannot be written.
    func writeCoverage(_ counted: [String: [Int: Int]]) -> String? {
        do {
            let written = try CoverageReport(counted: counted).write(
                within: [FileManager.default.currentDirectoryPath] + runtime.writableFolders)
            printError("envscript: coverage written to \(written.joined(separator: " and "))")
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// One run of `plan`'s files: a fresh host (and home, without --home), the report, the exit status
    /// as an error; or, with several jobs, the same run by worker processes (``JobCoordinator``).
    private func run(_ plan: Plan, interruption: RunInterruption) throws {
        if worker { return try serve(plan, interruption: interruption) }
        let jobs = jobCount(for: plan)
        if jobs > 1 { return try runInParallel(plan, jobs: jobs, interruption: interruption) }
        // A report that cannot be written is refused before anything runs.
        let report = try ReportOutput(path: output)
        try withRunHost(plan, interruption: interruption, writesCoverage: true) { host, limits in
            try runFiles(plan, host: host, report: report, limits: limits)
        }
    }

    /// Opens the host of a run of `plan` (over a fresh temporary home, without --home), runs `body`,
    /// writes the coverage files when `writesCoverage`, and closes the host (removing the temporary
    /// home). `interruption`'s target is given the host's interrupter while the host is open.
    func withRunHost(
        _ plan: Plan, interruption: RunInterruption, writesCoverage: Bool,
        _ body: (EnvScriptHost, ScenarioTimeLimits) throws -> Void
    ) throws {
        let files = plan.files
        let interrupts = interruption.target
        let limits = timeLimits(interruption: interruption, testTimeoutLabel: plan.testTimeoutLabel)
        // A fresh home (and, beside it, the key of secure state) for each run, unless --home is given, in
        // a folder of its own (0700).
        let temporaryRoot = runtime.home == nil ? try PrivateTemporaryFolder.make(prefix: "envscript-run-") : nil
        // A second Ctrl-C, which ends the process at once, removes it too.
        if let temporaryRoot { interruption.removesOnExit(temporaryRoot) }
        defer {
            if let temporaryRoot {
                interruption.forget(temporaryRoot)
                try? FileManager.default.removeItem(at: temporaryRoot)
            }
        }
        let home = temporaryRoot?.appendingPathComponent("home") ?? runtime.configuredHome
        // A fresh temporary home is this run's alone: no other process can switch it or open it later, so
        // the run neither attaches to it (no control socket to open, no attachment record to write) nor
        // records the application's identifier in it (no record to encode and sync: a millisecond of
        // start-up).
        defer { interrupts.detach() }
        let host = try runtime.openHost(
            home: home, scripts: files, writesApplicationData: temporaryRoot == nil, attaches: temporaryRoot == nil,
            startupLimit: limits.current(for: .startup), budgetByDefault: false,
            opened: { host in
                interrupts.attach(host.lua.interrupter)
                Self.prepare(host, modulePath: plan.modulePath)
                // Before the start-up scripts, so that they and their hooks are counted too.
                if plan.coverage {
                    do {
                        try host.lock.withLock { try host.lua.startCoverage() }
                    } catch {
                        printError("envscript: coverage is not counted: \(error)")
                    }
                }
            })
        defer { host.close() }
        // The coverage files are written whatever the run's outcome, once its tests have run; one that
        // cannot be written fails a run that did not fail otherwise (status 2, as a report would).
        var failure: CommandFailure?
        do {
            try body(host, limits)
        } catch {
            failure = ErrorReport.failure(for: error)
        }
        if plan.coverage, writesCoverage, let problem = writeCoverage(host.lock.withLock { host.lua.coverage }) {
            if failure == nil { failure = CommandFailure.usage(problem) } else { printError("envscript: \(problem)") }
        }
        if let failure { throw failure }
    }

    /// Runs `plan`'s files in `host`: the report, the exit status as an error.
    private func runFiles(_ plan: Plan, host: EnvScriptHost, report: ReportOutput, limits: ScenarioTimeLimits) throws {
        let files = plan.files
        let seed = shuffleSeed()
        if let seed { printError("envscript: tests shuffled with --seed \(seed)") }
        let runner = try ScenarioRunner(host: host, limits: limits, seed: seed, savesState: true)
        // Compile everything first, so a syntax error in the last file runs nothing.
        let helper = try plan.helper.map { (file: $0, chunk: try host.compileScript(atPath: $0)) }
        var compiled = try files.map { (file: $0, chunk: try host.compileScript(atPath: $0)) }
        if let seed {
            var generator = SeededRandomNumberGenerator(seed: seed)
            compiled.shuffle(using: &generator)
        }
        if let helper {
            do {
                try runner.loadHelper(helper.chunk, file: helper.file)
            } catch let error as ScenarioRunner.LoadError {
                var failure = ErrorReport.failure(for: error.underlying)
                failure.status = ExitStatus.usage
                failure.message = "in the helper \(helper.file) (--helper): \(failure.message)"
                throw failure
            }
        }
        let suite = try runner.load(compiled)
        // A run reports when it runs a project (its files found in folders), when a file declared
        // scenarios, when a file is named as busted names specs (one that fails before its first
        // describe is still reported), or when a report was asked for (--format tap, junit or json,
        // --output); otherwise its files were plain scripts.
        let reports = plan.isProject || suite.declaresScenarios || files.contains(where: ScenarioRunner.isSpecFile)
            || reportFormat != .pretty || output != nil
        guard reports else {
            // Plain scripts: each error, with its traceback, goes to standard error.
            let failures = suite.loadErrors.map { ErrorReport.failure(for: $0.underlying) }
            for failure in failures.dropLast() { printError(failure.message) }
            if let last = failures.last { throw last }
            try saveState(of: host)
            return
        }
        if list {
            let (tests, errors) = runner.list(suite, selection: selection)
            for test in tests {
                report.write("\(test.file): \(test.names.joined(separator: " "))")
            }
            try report.finish()
            // A block whose body failed hides its tests: said on standard error, and the run fails.
            for error in errors {
                if case .error(let message, _) = error.outcome { printError("\(error.file): \(error.fullName): \(message)") }
            }
            if !suite.loadErrors.isEmpty || !errors.isEmpty { throw CommandFailure(message: "", status: ExitStatus.failure) }
            try saveState(of: host)
            return
        }
        if reportFormat == .pretty { report.write(runtime.startupScriptsLine(forFiles: files)) }
        let summary = runner.run(suite, selection: selection, reporter: reportFormat.reporter(write: report.write))
        try report.finish()
        if summary.hasFailures { throw CommandFailure(message: "", status: ExitStatus.failure) }
    }

    /// Saves what the run left in the stored state; a save that fails fails the run (status 1). (A run
    /// with a report saves in its runner, so that the report shows the failure.)
    func saveState(of host: EnvScriptHost) throws {
        if let failure = RunStateSave.failure(saving: host) { throw CommandFailure.failure(failure) }
    }
}
