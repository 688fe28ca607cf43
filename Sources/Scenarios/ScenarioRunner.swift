import EnvScript
import Foundation
import LuaBridge

/// Runs busted-style scenarios in a host: files are loaded (collecting `describe`/`it`), then each
/// hook and test is called from Swift as its own entry into Lua, so each has the full instruction
/// budget and a runaway test cannot starve the rest.
public final class ScenarioRunner {
    /// A test collected from a file, ready to run; or a file that failed at its top level, which runs
    /// as its error.
    public struct Test {
        public var file: String
        public var names: [String]
        var body: LuaFunctionRef?
        var before: [LuaFunctionRef]
        var after: [LuaFunctionRef]
        var isPending: Bool
        /// The blocks around it, outermost (its file) first, by the ids the prelude gave them.
        var blocks: [Int] = []
        /// Set for the entry that stands for a file that failed at its top level.
        var loadError: LuaError?

        /// Whether the entry is a test (rather than a file that failed at its top level).
        public var isTest: Bool { loadError == nil }
    }

    /// A file failed at its top level: while its scenarios were being declared (an error in a
    /// `describe` body, say), or before it declared any (a plain script's error).
    public struct LoadError: Error, CustomStringConvertible {
        public var file: String
        public var underlying: LuaError
        /// Whether the file had declared scenarios before it failed.
        public var declaredScenarios: Bool
        public var description: String { underlying.description }
    }

    private let host: EnvScriptHost
    private let prelude: ScenarioPrelude.Functions
    private let limits: ScenarioTimeLimits
    /// Shuffles the tests within each block when set (`run --shuffle`).
    private let seed: UInt64?

    /// Defines the scenario globals: busted's declarations (`describe`, `it`, `setup`, ...), luassert's
    /// `assert`, `spy`, `stub`, `mock` and `match`.
    ///
    /// - Parameters:
    ///   - limits: wall-clock limits on loading the files and running the tests.
    ///   - seed: when set, the tests of each block run in an order shuffled with this seed.
    public init(host: EnvScriptHost, limits: ScenarioTimeLimits = .none, seed: UInt64? = nil) throws {
        self.host = host
        self.limits = limits
        self.seed = seed
        self.prelude = try ScenarioPrelude.load(into: host)
    }

    /// Runs already compiled files in order and collects their tests. A file that fails at its top
    /// level does not stop the others: it becomes an entry of the suite that reports its error.
    public func load(_ files: [(file: String, chunk: LuaFunctionRef)]) throws -> ScenarioSuite {
        var suite = ScenarioSuite()
        for (file, chunk) in files {
            // Once the run's time is up, the files left are not loaded.
            if limits.runHasExpired { break }
            do {
                let tests = try loadFile(chunk, file: file)
                suite.tests += tests
                suite.declaresScenarios = suite.declaresScenarios || !tests.isEmpty
            } catch let error as LoadError {
                // The file's entry: it reports the error when it runs.
                suite.tests.append(Test(
                    file: file, names: [], body: nil, before: [], after: [], isPending: false, loadError: error.underlying))
                suite.loadErrors.append(error)
                suite.declaresScenarios = suite.declaresScenarios || error.declaredScenarios
            }
        }
        return suite
    }

    /// Runs an already compiled file and returns the tests it declared (none for a plain script).
    ///
    /// - Throws: ``LoadError`` when the file fails after declaring scenarios; the plain ``LuaError``
    ///   when a script without scenarios fails.
    public func load(_ chunk: LuaFunctionRef, file: String) throws -> [Test] {
        do {
            return try loadFile(chunk, file: file)
        } catch let error as LoadError where !error.declaredScenarios {
            throw error.underlying
        }
    }

    /// Runs one file and collects its tests; any error at its top level is a ``LoadError``.
    private func loadFile(_ chunk: LuaFunctionRef, file: String) throws -> [Test] {
        try host.lock.withLock {
            do {
                try limited(perTest: false) { _ = try chunk.call() }
            } catch let error as LuaError {
                let inScenarios = (try? prelude.declared.call().first?.boolValue) ?? false
                _ = try? prelude.collect.call()
                throw LoadError(file: file, underlying: error, declaredScenarios: inScenarios == true)
            }
            let seedArgument: [LuaValue] = seed.map { [.integer(Int(truncatingIfNeeded: $0 % 2_147_483_646 + 1))] } ?? []
            guard case .table(let list) = try prelude.collect.call(seedArgument).first else { return [] }
            return list.array.map { entry in
                Test(
                    file: file,
                    names: entry["names"].tableValue?.array.compactMap(Self.text) ?? [],
                    body: Self.function(entry["fn"]),
                    before: entry["before"].tableValue?.array.compactMap(Self.function) ?? [],
                    after: entry["after"].tableValue?.array.compactMap(Self.function) ?? [],
                    isPending: entry["pending"].boolValue ?? false,
                    blocks: entry["blocks"].tableValue?.array.compactMap(\.intValue) ?? [])
            }
        }
    }

    /// Runs `tests` whose full name contains `filter` (all without one), reporting each as it ends.
    @discardableResult
    public func run(_ tests: [Test], filter: String? = nil, reporter: any ScenarioReporter) -> ScenarioSummary {
        run(tests, selection: ScenarioSelection(filter: filter), reporter: reporter)
    }

    /// Runs the tests `selection` picks, reporting each as it ends. Errored files are reported whatever
    /// the selection: their tests might have been picked.
    ///
    /// Blocks are entered before the first of their tests and left after the last (setups, teardowns
    /// and insulation, see `busted.lua`); a setup that fails fails the tests of its block without
    /// running them, and a teardown that fails is reported as a failed entry named after its block.
    @discardableResult
    public func run(_ tests: [Test], selection: ScenarioSelection, reporter: any ScenarioReporter) -> ScenarioSummary {
        let picked = tests.filter { $0.loadError != nil || selection.selects(names: $0.names) }
        // Errored files are reported once, whatever the number of passes.
        let passes = (0..<max(selection.repetitions, 1)).map { pass in pass == 0 ? picked : picked.filter { $0.loadError == nil } }
        reporter.runWillStart(testCount: passes.reduce(0) { $0 + $1.count })
        var summary = ScenarioSummary()
        func report(_ result: ScenarioResult) {
            summary.add(result)
            reporter.testDidFinish(result)
        }
        for pass in passes {
            // Each pass enters and leaves its blocks, so setups and teardowns run again.
            var blocks = BlockWalk()
            for test in pass {
                // Once the run's time is up (or, with --fail-fast, a test failed) no test starts; the one
                // running then has failed naming the limit. Errored files are still reported.
                if test.loadError == nil, let reason = stopReason(summary, selection) {
                    summary.notRun += 1
                    summary.stopReason = reason
                    continue
                }
                if test.loadError == nil { move(&blocks, to: test.blocks, file: test.file).forEach(report) }
                report(run(test, setupFailure: blocks.setupFailure))
            }
            move(&blocks, to: [], file: "").forEach(report)
        }
        reporter.runDidFinish(summary)
        return summary
    }

    private func stopReason(_ summary: ScenarioSummary, _ selection: ScenarioSelection) -> String? {
        if limits.runHasExpired { return limits.runStopReason }
        if selection.failFast, summary.failed + summary.errored > 0 { return "stopped by --fail-fast after the first failure" }
        return nil
    }

    /// The blocks entered so far, and the first setup among them that failed.
    private struct BlockWalk {
        var open: [Int] = []
        /// The open blocks whose `enter` ran (inside a block whose setup failed, none of the inner ones).
        var entered: Set<Int> = []
        /// The file of the open blocks.
        var file = ""
        var setupFailures: [Int: String] = [:]
        var setupFailure: String? { open.lazy.compactMap { setupFailures[$0] }.first }
    }

    /// Leaves the blocks `chain` is not in (innermost first) and enters those it adds (outermost
    /// first). Returns a failed entry for each teardown that failed.
    private func move(_ walk: inout BlockWalk, to chain: [Int], file: String) -> [ScenarioResult] {
        let common = zip(walk.open, chain).prefix { $0 == $1 }.count
        var failures: [ScenarioResult] = []
        for id in walk.open[common...].reversed() {
            // A block never entered (its setup, or an outer one, failed first) has nothing to tear down.
            guard walk.entered.remove(id) != nil else {
                walk.setupFailures[id] = nil
                continue
            }
            if let error = callPrelude(prelude.leave, id) {
                let names = (try? host.lock.withLock { try prelude.names.call([.integer(id)]) })?.first?
                    .tableValue?.array.compactMap(Self.text) ?? []
                failures.append(ScenarioResult(
                    file: walk.file, names: names + ["(teardown)"],
                    outcome: .failed(message: error.message, traceback: error.traceback.map(Self.withoutPreludeFrames)),
                    duration: .zero))
            }
            walk.setupFailures[id] = nil
        }
        walk.open.removeLast(walk.open.count - common)
        walk.file = file
        for id in chain[common...] {
            walk.open.append(id)
            // Inside a block whose setup failed nothing more is entered: its tests fail with that error.
            if walk.setupFailure != nil { continue }
            // Entered even when its setup fails: what the setup did before failing is torn down.
            walk.entered.insert(id)
            if let error = callPrelude(prelude.enter, id) { walk.setupFailures[id] = error.message }
        }
        return failures
    }

    /// Calls one of the prelude's block functions with a block id; its error, if any.
    private func callPrelude(_ function: LuaFunctionRef, _ id: Int) -> LuaError? {
        do {
            try host.lock.withLock { try limited(perTest: true) { _ = try function.call([.integer(id)]) } }
            return nil
        } catch let error as LuaError {
            return error
        } catch {
            return LuaError(.runtime, message: "\(error)")
        }
    }

    /// Runs `body` under the time limit that applies now, if any.
    private func limited(perTest: Bool, _ body: () throws -> Void) throws {
        guard let limit = limits.current(perTest: perTest) else { return try body() }
        try host.lua.withTimeLimit(seconds: limit.seconds, reason: limit.reason, body)
    }

    private func run(_ test: Test, setupFailure: String?) -> ScenarioResult {
        var result = ScenarioResult(file: test.file, names: test.names, outcome: .passed, duration: .zero)
        if let error = test.loadError {
            let location = error.location
            result.outcome = .errored(
                message: error.message, traceback: error.traceback.map(Self.withoutPreludeFrames),
                line: location?.chunk == test.file ? location?.line : nil)
            return result
        }
        if test.isPending {
            result.outcome = .skipped
            return result
        }
        if let setupFailure {
            result.outcome = .failed(message: setupFailure, traceback: nil)
            return result
        }
        let clock = ContinuousClock()
        let start = clock.now
        var failure: ScenarioOutcome?
        func attempt(_ function: LuaFunctionRef, _ arguments: [LuaValue] = [], as stage: String?) {
            // Once the run's limit has passed, nothing more of it runs, its after_each hooks included.
            if limits.runHasExpired, failure != nil { return }
            do {
                try host.lock.withLock { try limited(perTest: true) { _ = try function.call(arguments) } }
            } catch let error as LuaError {
                if failure == nil {
                    let message = stage.map { "\($0) failed: \(error.message)" } ?? error.message
                    failure = .failed(message: message, traceback: error.traceback.map(Self.withoutPreludeFrames))
                }
            } catch {
                if failure == nil { failure = .failed(message: "\(error)", traceback: nil) }
            }
        }
        for id in test.blocks where failure == nil { attempt(prelude.start, [.integer(id)], as: nil) }
        for hook in test.before where failure == nil { attempt(hook, as: "before_each") }
        if failure == nil, let body = test.body {
            attempt(prelude.begin, as: nil)
            attempt(body, as: nil)
            // `finally` callbacks run whether the body passed or not.
            attempt(prelude.finish, as: nil)
        }
        // after_each runs even when the test failed: it is where scenarios clean up.
        for hook in test.after { attempt(hook, as: "after_each") }
        result.duration = clock.now - start
        result.outcome = failure ?? .passed
        return result
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
