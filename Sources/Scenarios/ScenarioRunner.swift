package import EnvScript
import Foundation
package import LuaBridge

/// Runs busted-style scenarios in a host: files are loaded (their top level declares blocks, tests and
/// hooks), then each file's tree is walked as busted executes it — a block's body runs when the walk
/// reaches it, after the tests before it — and each body, hook and test is called from Swift as its own
/// entry into Lua, so each has the full instruction budget and a runaway test cannot starve the rest.
package final class ScenarioRunner {
    /// A test met while walking a file, ready to run; or a block without tests to enter and leave.
    package struct Test {
        package var file: String
        package var names: [String]
        var body: LuaFunctionRef?
        var before: [LuaFunctionRef]
        var after: [LuaFunctionRef]
        var isPending: Bool
        /// The blocks around it, outermost (its file) first, by the ids the prelude gave them.
        var blocks: [Int] = []
        /// For each hook of `before` and `after`, the place in `blocks` of the block that declared it
        /// (1 for the file): after a before_each fails, only the after_each hooks of its block and of
        /// those around it run, as in busted.
        var beforeDepths: [Int] = []
        var afterDepths: [Int] = []
        /// Set for the entry of a block without tests: the runner enters and leaves it (its strict
        /// setups and teardowns run, as in busted) and reports nothing for it.
        var isBlockOnly = false

        /// Whether the entry is a test (rather than a block without tests).
        package var isTest: Bool { !isBlockOnly }
    }

    /// A file failed at its top level: while its scenarios were being declared (an error in a
    /// `describe` body, say), or before it declared any (a plain script's error).
    package struct LoadError: Error, CustomStringConvertible {
        package var file: String
        package var underlying: LuaError
        /// Whether the file had declared scenarios before it failed.
        package var declaredScenarios: Bool
        package var description: String { underlying.description }
    }

    private let host: EnvScriptHost
    private let prelude: ScenarioPrelude.Functions
    private let limits: ScenarioTimeLimits
    /// Shuffles the tests within each block when set (`run --shuffle`).
    private let seed: UInt64?
    /// Whether a run saves the stored state after its tests, a failed save being an error entry
    /// (``RunStateSave``).
    private let savesState: Bool

    /// Defines the scenario globals: busted's declarations (`describe`, `it`, `setup`, ...), luassert's
    /// `assert`, `spy`, `stub`, `mock` and `match`.
    ///
    /// - Parameters:
    ///   - limits: wall-clock limits on loading the files and running the tests.
    ///   - seed: when set, the tests of each block run in an order shuffled with this seed.
    ///   - savesState: whether a run saves the stored state after its tests and reports a save that
    ///     failed as an error of its own (``RunStateSave``), rather than leave it to the host's close.
    package init(host: EnvScriptHost, limits: ScenarioTimeLimits = .none, seed: UInt64? = nil, savesState: Bool = false) throws {
        self.host = host
        self.limits = limits
        self.seed = seed
        self.savesState = savesState
        self.prelude = try ScenarioPrelude.load(into: host)
    }

    /// Runs already compiled files' top levels in order. A file that fails at its top level does not
    /// stop the others: it becomes an entry of the suite that reports its error. The helper's tests
    /// (``loadHelper(_:file:)``) come first unless `includingHelper` is false (a worker of a run with
    /// `--jobs` given its second file).
    package func load(_ files: [(file: String, chunk: LuaFunctionRef)], includingHelper: Bool = true) throws -> ScenarioSuite {
        var suite = ScenarioSuite()
        if includingHelper, let helperRoot { suite.files.append(ScenarioSuite.File(path: helperRoot.file, root: helperRoot.root)) }
        for (file, chunk) in files {
            // Once the run's time is up, the files left are not loaded.
            if limits.runHasExpired { break }
            do {
                let (root, declared) = try loadFile(chunk, file: file)
                suite.files.append(ScenarioSuite.File(path: file, root: root))
                suite.declaresScenarios = suite.declaresScenarios || declared
            } catch let error as LoadError {
                // The file's entry: it reports the error when it runs.
                suite.files.append(ScenarioSuite.File(path: file, loadError: error.underlying))
                suite.loadErrors.append(error)
                suite.declaresScenarios = suite.declaresScenarios || error.declaredScenarios
            }
        }
        return suite
    }

    /// Runs busted's `--helper` before the files load: like a spec file's top level (luassert's
    /// `assert` in reach), but outside any insulation, so what it sets stays for every file. Tests it
    /// declares run first.
    ///
    /// - Throws: ``LoadError`` when it fails.
    package func loadHelper(_ chunk: LuaFunctionRef, file: String) throws {
        let (root, _) = try loadFile(chunk, file: file, isSpec: true, keepsGlobals: true)
        helperRoot = (file, root)
    }

    /// The helper's root block, walked before the files'.
    private var helperRoot: (file: String, root: Int)?

    /// Whether `file` is named as busted names its specs (`login_spec.lua`): such a file is a scenario
    /// file from its first line (it reads luassert's `assert` there); any other becomes one when it
    /// first declares a block, a test or a hook.
    package static func isSpecFile(_ file: String) -> Bool {
        file.split(separator: "/").last?.hasSuffix("_spec.lua") ?? false
    }

    /// Runs one file's top level: the id of its root block and whether it declared scenarios; any
    /// error at its top level is a ``LoadError``.
    private func loadFile(
        _ chunk: LuaFunctionRef, file: String, isSpec: Bool? = nil, keepsGlobals: Bool = false
    ) throws -> (root: Int, declared: Bool) {
        try host.lock.withLock {
            do {
                // busted's scope for the file's globals (see busted.lua), from its first declaration.
                let scope = prelude.scope
                let enterScope = try host.lua.reference(to: LuaFunction("enter_scope") { _ in
                    try chunk.setEnvironment(like: scope)
                    return 0
                })
                try prelude.openFile.call([.boolean(isSpec ?? Self.isSpecFile(file)), .function(enterScope)])
                // A file's top level is a stage of the run as a test is: the per-stage limit applies.
                try limited(.fileTopLevel) { _ = try chunk.call() }
            } catch let error as LuaError {
                let inScenarios = (try? prelude.declared.call().first?.boolValue) ?? false
                _ = try? prelude.collect.call()
                throw LoadError(file: file, underlying: error, declaredScenarios: inScenarios == true)
            }
            let declared = try prelude.declared.call().first?.boolValue ?? false
            let seedArgument: LuaValue = seed.map { .integer(Int(truncatingIfNeeded: $0 % 2_147_483_646 + 1)) } ?? .nil
            guard let root = try prelude.collect.call([seedArgument, .boolean(keepsGlobals)]).first?.intValue else {
                throw LuaScriptError("the scenario prelude did not answer the file's block")
            }
            return (root, declared)
        }
    }

    /// The next entry of the file being walked (``ScenarioPrelude/Functions/step``), nil at its end.
    private func nextEntry(file: String) -> Entry? {
        let answer = try? host.lock.withLock { try prelude.step.call().first }
        guard case .table(let entry)? = answer else { return nil }
        let blocks = entry["blocks"].tableValue?.array.compactMap(\.intValue) ?? []
        if let id = entry["expand"].intValue { return .expand(id, blocks: blocks) }
        return .test(Test(
            file: file,
            names: entry["names"].tableValue?.array.compactMap(Self.text) ?? [],
            body: Self.function(entry["fn"]),
            before: entry["before"].tableValue?.array.compactMap(Self.function) ?? [],
            after: entry["after"].tableValue?.array.compactMap(Self.function) ?? [],
            isPending: entry["pending"].boolValue ?? false,
            blocks: blocks,
            beforeDepths: entry["before_depths"].tableValue?.array.compactMap(\.intValue) ?? [],
            afterDepths: entry["after_depths"].tableValue?.array.compactMap(\.intValue) ?? [],
            isBlockOnly: entry["block_only"].boolValue ?? false))
    }

    /// What walking a file answers next.
    private enum Entry {
        /// A test, a block's error, or a block to enter and leave.
        case test(Test)
        /// A block whose body must run first, inside `blocks` (the blocks around it).
        case expand(Int, blocks: [Int])
    }

    /// The tests of `suite`, without running them, in the order a run meets them (each block's body
    /// runs, as busted's `--list` runs them): `run --list`. A body that fails is an entry of `errors`
    /// named after its block.
    package func list(_ suite: ScenarioSuite, selection: ScenarioSelection) -> (tests: [Test], errors: [ScenarioResult]) {
        var found: [Test] = []
        var errors: [ScenarioResult] = []
        for file in suite.files {
            guard let root = file.root else { continue }
            _ = try? host.lock.withLock { try prelude.walk.call([.integer(root), .integer(1)]) }
            while let entry = nextEntry(file: file.path) {
                switch entry {
                case .expand(let id, _):
                    if let error = call(prelude.expand, [.integer(id)], stage: .blockBody).error {
                        _ = call(prelude.abandon, [.integer(id)])
                        errors.append(hookError(error, file: file.path, names: blockNames(id)).withSandboxHint())
                    }
                case .test(let test):
                    if test.isTest && selection.selects(names: test.names) { found.append(test) }
                }
            }
        }
        return (found, errors)
    }

    /// Runs the tests of `suite` whose full name contains `filter` (all without one), reporting each
    /// as it ends.
    @discardableResult
    package func run(_ suite: ScenarioSuite, filter: String? = nil, reporter: any ScenarioReporter) -> ScenarioSummary {
        run(suite, selection: ScenarioSelection(filter: filter), reporter: reporter)
    }

    /// Runs the tests `selection` picks, reporting each as it ends. Errored files are reported whatever
    /// the selection (their tests might have been picked), once whatever the number of passes.
    ///
    /// Each file's tree is walked as busted executes it: a block's body runs when the walk reaches it,
    /// inside the blocks around it (entered first, their setups done), after the tests before it, once
    /// each pass; a body that fails is an entry named after its block, whose tests are not collected. Blocks are entered
    /// before the first of their tests and left after the last (setups, teardowns and insulation, see
    /// `busted.lua`). Hooks fail as busted's do, each an error of its own: a setup (or lazy setup) that
    /// fails is an entry named after its block, and its block's tests do not run and are not reported; a
    /// before_each that fails is the error of its test, which does not run; an after_each or a teardown
    /// that fails is an entry of its own after the test or the block.
    @discardableResult
    package func run(_ suite: ScenarioSuite, selection: ScenarioSelection, reporter: any ScenarioReporter) -> ScenarioSummary {
        reporter.runWillStart()
        var summary = ScenarioSummary()
        var pass = 0
        func report(_ result: ScenarioResult) {
            var result = result.withSandboxHint()
            result.pass = pass
            summary.add(result)
            reporter.testDidFinish(result)
        }
        for currentPass in 0..<max(selection.repetitions, 1) {
            pass = currentPass
            // Each pass enters and leaves its blocks, so setups and teardowns run again.
            var blocks = BlockWalk()
            for file in suite.files {
                if let error = file.loadError {
                    if pass == 0 { report(erroredFile(file.path, error)) }
                    continue
                }
                guard let root = file.root else { continue }
                _ = try? host.lock.withLock { try prelude.walk.call([.integer(root), .integer(pass + 1)]) }
                while let entry = nextEntry(file: file.path) {
                    switch entry {
                    case .expand(let id, let chain):
                        // Not run once the run stops: its tests are not known, so not counted as not run.
                        if let reason = stopReason(summary, selection) {
                            summary.stopReason = reason
                            _ = call(prelude.skip)
                            continue
                        }
                        move(&blocks, to: chain, file: file.path).forEach(report)
                        // Inside a block whose setup failed, nothing more runs (busted: its children are
                        // not executed).
                        if blocks.setupFailed || limits.isStopped() {
                            _ = call(prelude.skip)
                            continue
                        }
                        if let error = call(prelude.expand, [.integer(id)], stage: .blockBody).error {
                            _ = call(prelude.abandon, [.integer(id)])
                            report(hookError(error, file: file.path, names: blockNames(id)))
                        }
                    case .test(let test):
                        guard test.isBlockOnly || selection.selects(names: test.names) else { continue }
                        // Once the run's time is up (or, with --fail-fast, a test failed) no test starts;
                        // the one running then has failed naming the limit.
                        if let reason = stopReason(summary, selection) {
                            if test.isTest { summary.notRun += 1 }
                            summary.stopReason = reason
                            continue
                        }
                        move(&blocks, to: test.blocks, file: test.file).forEach(report)
                        // Stopped (Ctrl-C) while its blocks were entered: the test does not start.
                        if limits.isStopped() {
                            if test.isTest { summary.notRun += 1 }
                            summary.stopReason = limits.runStopReason
                            continue
                        }
                        run(test, setupFailed: blocks.setupFailed).forEach(report)
                    }
                }
            }
            move(&blocks, to: [], file: "").forEach(report)
        }
        if savesState, let failure = RunStateSave.failure(saving: host) { report(RunStateSave.result(for: failure)) }
        reporter.runDidFinish(summary)
        return summary
    }

    /// The entry of a file that failed at its top level.
    private func erroredFile(_ file: String, _ error: LuaError) -> ScenarioResult {
        let location = error.location
        return ScenarioResult(
            file: file, names: [],
            outcome: .errored(
                message: error.message, traceback: error.traceback.map(Self.withoutPreludeFrames),
                line: location?.chunk == file ? location?.line : nil),
            duration: .zero)
    }

    private func stopReason(_ summary: ScenarioSummary, _ selection: ScenarioSelection) -> String? {
        if limits.runHasExpired { return limits.runStopReason }
        if selection.failFast, summary.failed + summary.errored > 0 || selection.failedElsewhere() {
            return "stopped by --fail-fast after the first failure"
        }
        return nil
    }

    /// The blocks entered so far, and the first setup among them that failed.
    private struct BlockWalk {
        var open: [Int] = []
        /// The open blocks whose `enter` ran (inside a block whose setup failed, none of the inner ones).
        var entered: Set<Int> = []
        /// The file of the open blocks.
        var file = ""
        var setupFailures: Set<Int> = []
        var setupFailed: Bool { open.contains { setupFailures.contains($0) } }
    }

    /// Leaves the blocks `chain` is not in (innermost first) and enters those it adds (outermost
    /// first). Returns an error entry for each teardown and each setup that failed.
    private func move(_ walk: inout BlockWalk, to chain: [Int], file: String) -> [ScenarioResult] {
        // A stopped run (its time up, Ctrl-C) runs no more Lua code, teardowns included: each would
        // stop at its first instruction and report the limit again. Its host is closed next.
        if limits.runHasExpired {
            walk = BlockWalk()
            return []
        }
        let common = zip(walk.open, chain).prefix { $0 == $1 }.count
        var failures: [ScenarioResult] = []
        for id in walk.open[common...].reversed() {
            // A block never entered (its setup, or an outer one, failed first) has nothing to tear down.
            guard walk.entered.remove(id) != nil else {
                walk.setupFailures.remove(id)
                continue
            }
            if let error = callPrelude(prelude.leave, id) {
                failures.append(hookError(error, file: walk.file, names: blockNames(id) + ["(teardown)"]))
            }
            walk.setupFailures.remove(id)
        }
        walk.open.removeLast(walk.open.count - common)
        walk.file = file
        for id in chain[common...] {
            walk.open.append(id)
            // Inside a block whose setup failed nothing more is entered: its tests do not run.
            if walk.setupFailed { continue }
            // Entered even when its setup fails: what the setup did before failing is torn down.
            walk.entered.insert(id)
            if let error = callPrelude(prelude.enter, id) {
                walk.setupFailures.insert(id)
                failures.append(hookError(error, file: file, names: blockNames(id) + ["(setup)"]))
            }
        }
        return failures
    }

    /// Calls one of the prelude's block functions with a block id; its error, if any.
    private func callPrelude(_ function: LuaFunctionRef, _ id: Int) -> LuaError? {
        call(function, [.integer(id)], stage: .hook).error
    }

    /// Calls `function` under the time limit that applies now to `stage`: its results, or its error.
    private func call(
        _ function: LuaFunctionRef, _ arguments: [LuaValue] = [], stage: ScenarioStage = .hook
    ) -> (results: [LuaValue], error: LuaError?) {
        do {
            var results: [LuaValue] = []
            try host.lock.withLock { try limited(stage) { results = try function.call(arguments) } }
            return (results, nil)
        } catch let error as LuaError {
            return ([], error)
        } catch {
            return ([], LuaError(.runtime, message: "\(error)"))
        }
    }

    /// The names of block `id`.
    private func blockNames(_ id: Int) -> [String] {
        (try? host.lock.withLock { try prelude.names.call([.integer(id)]) })?.first?
            .tableValue?.array.compactMap(Self.text) ?? []
    }

    /// The entry of a hook that failed: an error, as busted counts it.
    private func hookError(_ error: LuaError, file: String, names: [String], prefix: String = "") -> ScenarioResult {
        ScenarioResult(
            file: file, names: names,
            outcome: .error(message: prefix + error.message, traceback: error.traceback.map(Self.withoutPreludeFrames)),
            duration: .zero)
    }

    /// Runs `body`, a part of `stage`, under the time limit that applies now, if any.
    private func limited(_ stage: ScenarioStage, _ body: () throws -> Void) throws {
        guard let limit = limits.current(for: stage) else { return try body() }
        try host.lua.withTimeLimit(seconds: limit.seconds, reason: limit.reason, body)
    }

    /// Runs one test with its hooks: its result, then an entry for each after_each that failed. A
    /// test inside a block whose setup or lazy setup failed has none (the setup's entry stands for it).
    private func run(_ test: Test, setupFailed: Bool) -> [ScenarioResult] {
        var result = ScenarioResult(file: test.file, names: test.names, outcome: .passed, duration: .zero)
        if test.isPending {
            result.outcome = .skipped
            return [result]
        }
        if setupFailed || test.isBlockOnly { return [] }
        let clock = ContinuousClock()
        let start = clock.now
        // Once the run's limit has passed, nothing more of the test runs, its after_each hooks included;
        // nor once it was stopped (Ctrl-C), which ``limits`` knows from the moment the signal arrived.
        var stopped = false
        // Whether a stage ended at a time limit (the stop's own included), its error then the test's.
        var reachedLimit = false
        func attempt(
            _ function: LuaFunctionRef, _ arguments: [LuaValue] = [], stage: ScenarioStage = .hook
        ) -> (results: [LuaValue], error: LuaError?) {
            if stopped || limits.isStopped() {
                stopped = true
                return ([], nil)
            }
            let outcome = call(function, arguments, stage: stage)
            if outcome.error?.kind == .timeLimit { reachedLimit = true }
            if outcome.error != nil, limits.runHasExpired { stopped = true }
            return outcome
        }
        for id in test.blocks {
            let (results, error) = attempt(prelude.start, [.integer(id)])
            if let error {
                return [hookError(error, file: test.file, names: blockNames(id) + ["(lazy_setup)"])]
            }
            if results.first?.boolValue == false { return [] }
        }
        var entries: [ScenarioResult] = []
        var failedDepth: Int?
        for (index, hook) in test.before.enumerated() {
            guard let error = attempt(hook).error else { continue }
            result.outcome = .error(
                message: "before_each failed: \(error.message)", traceback: error.traceback.map(Self.withoutPreludeFrames))
            failedDepth = index < test.beforeDepths.count ? test.beforeDepths[index] : 0
            break
        }
        if failedDepth == nil, let body = test.body {
            _ = attempt(prelude.begin, [.integer(test.blocks.last ?? 0)])
            let bodyError = attempt(body, stage: .test).error
            let message = bodyError.map { LuaValue.string($0.message) } ?? .nil
            let (ended, finallyError) = attempt(prelude.finish, [.boolean(bodyError != nil), message])
            if let bodyError {
                let traceback = bodyError.traceback.map(Self.withoutPreludeFrames)
                switch ended.first?.stringValue {
                case "pending": result.outcome = .skipped
                case "failure": result.outcome = .failed(message: bodyError.message, traceback: traceback)
                case _ where Self.raisedByAssertions(bodyError):
                    result.outcome = .failed(message: bodyError.message, traceback: traceback)
                default: result.outcome = .error(message: bodyError.message, traceback: traceback)
                }
            } else if let finallyError {
                result.outcome = .error(message: finallyError.message, traceback: finallyError.traceback.map(Self.withoutPreludeFrames))
            }
        }
        // after_each runs even when the test failed: it is where scenarios clean up.
        for (index, hook) in test.after.enumerated() {
            if let failedDepth, index < test.afterDepths.count, test.afterDepths[index] > failedDepth { continue }
            if let error = attempt(hook).error {
                entries.append(hookError(error, file: test.file, names: test.names + ["(after_each)"], prefix: "after_each failed: "))
            }
        }
        result.duration = clock.now - start
        // Stopped (Ctrl-C) while the test ran: it is interrupted, whatever its code did after the signal
        // arrived — a terminal's Ctrl-C also kills the child process a test waits on, which then ends
        // at once, passing or failing for that reason alone.
        if limits.isStopped(), !reachedLimit { result.outcome = .error(message: "interrupted", traceback: nil) }
        return [result] + entries
    }

    /// Whether `error` was raised by the assertion library itself (its first frame below `error` is
    /// one of the luassert parts): a failure, as busted counts luassert's errors.
    static func raisedByAssertions(_ error: LuaError) -> Bool {
        guard let traceback = error.traceback else { return false }
        let frame = traceback.split(separator: "\n").dropFirst().first { !$0.hasPrefix("\t[C]:") }
        guard let frame else { return false }
        return ScenarioPrelude.isPartFrame(frame) && !frame.contains("\t" + ScenarioPrelude.chunkPrefix + "busted.lua:")
    }

    /// The traceback without the frames of the assertion library, so it starts at the scenario's line.
    static func withoutPreludeFrames(_ traceback: String) -> String {
        traceback.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !ScenarioPrelude.isPartFrame($0) && !$0.hasSuffix("[C]: in function 'error'") }
            .joined(separator: "\n")
    }

    /// A name as reports show it: a Lua string that is not UTF-8 keeps its place, each bad byte
    /// replaced with U+FFFD.
    private static func text(_ value: LuaValue) -> String? {
        switch value {
        case .string(let text): text
        case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
        default: nil
        }
    }

    private static func function(_ value: LuaValue) -> LuaFunctionRef? {
        if case .function(let function) = value { return function }
        return nil
    }
}
