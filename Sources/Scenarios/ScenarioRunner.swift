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
        /// Set for the entry that stands for a file that failed at its top level.
        var loadError: LuaError?
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
    private let collect: LuaFunctionRef
    private let declared: LuaFunctionRef
    private let limits: ScenarioTimeLimits

    /// Defines the scenario globals (`describe`, `it`, `pending`, `before_each`, `after_each`, `assert`).
    ///
    /// - Parameter limits: wall-clock limits on loading the files and running the tests.
    public init(host: EnvScriptHost, limits: ScenarioTimeLimits = .none) throws {
        self.host = host
        self.limits = limits
        let results = try host.execute(ScenarioPrelude.source, name: "scenarios")
        guard results.count == 2, case .function(let collect) = results[0], case .function(let declared) = results[1] else {
            throw LuaScriptError("the scenario prelude did not return its collector")
        }
        self.collect = collect
        self.declared = declared
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
                let inScenarios = (try? declared.call().first?.boolValue) ?? false
                _ = try? collect.call()
                throw LoadError(file: file, underlying: error, declaredScenarios: inScenarios == true)
            }
            guard case .table(let list) = try collect.call().first else { return [] }
            return list.array.map { entry in
                Test(
                    file: file,
                    names: entry["names"].tableValue?.array.compactMap(Self.text) ?? [],
                    body: Self.function(entry["fn"]),
                    before: entry["before"].tableValue?.array.compactMap(Self.function) ?? [],
                    after: entry["after"].tableValue?.array.compactMap(Self.function) ?? [],
                    isPending: entry["pending"].boolValue ?? false)
            }
        }
    }

    /// Runs `tests` whose full name contains `filter` (all without one), reporting each as it ends.
    /// Errored files are reported whatever the filter: their tests might have matched it.
    @discardableResult
    public func run(_ tests: [Test], filter: String? = nil, reporter: any ScenarioReporter) -> ScenarioSummary {
        let selected = tests.filter { test in
            guard let filter, !filter.isEmpty, test.loadError == nil else { return true }
            return test.names.joined(separator: " ").contains(filter)
        }
        reporter.runWillStart(testCount: selected.count)
        var summary = ScenarioSummary()
        for test in selected {
            // Once the run's time is up no test starts (the one running then has failed naming the
            // limit); errored files are still reported.
            if limits.runHasExpired, test.loadError == nil {
                summary.notRun += 1
                summary.stopReason = limits.runStopReason
                continue
            }
            let result = run(test)
            summary.add(result)
            reporter.testDidFinish(result)
        }
        reporter.runDidFinish(summary)
        return summary
    }

    /// Runs `body` under the time limit that applies now, if any.
    private func limited(perTest: Bool, _ body: () throws -> Void) throws {
        guard let limit = limits.current(perTest: perTest) else { return try body() }
        try host.lua.withTimeLimit(seconds: limit.seconds, reason: limit.reason, body)
    }

    private func run(_ test: Test) -> ScenarioResult {
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
        let clock = ContinuousClock()
        let start = clock.now
        var failure: ScenarioOutcome?
        func attempt(_ function: LuaFunctionRef, as stage: String?) {
            // Once the run's limit has passed, nothing more of it runs, its after_each hooks included.
            if limits.runHasExpired, failure != nil { return }
            do {
                try host.lock.withLock { try limited(perTest: true) { _ = try function.call() } }
            } catch let error as LuaError {
                if failure == nil {
                    let message = stage.map { "\($0) failed: \(error.message)" } ?? error.message
                    failure = .failed(message: message, traceback: error.traceback.map(Self.withoutPreludeFrames))
                }
            } catch {
                if failure == nil { failure = .failed(message: "\(error)", traceback: nil) }
            }
        }
        for hook in test.before where failure == nil { attempt(hook, as: "before_each") }
        if failure == nil, let body = test.body { attempt(body, as: nil) }
        // after_each runs even when the test failed: it is where scenarios clean up.
        for hook in test.after { attempt(hook, as: "after_each") }
        result.duration = clock.now - start
        result.outcome = failure ?? .passed
        return result
    }

    /// The traceback without the frames of the assertion library, so it starts at the scenario's line.
    static func withoutPreludeFrames(_ traceback: String) -> String {
        traceback.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("\tscenarios:") && !$0.hasSuffix("[C]: in function 'error'") }
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
