import EnvScript
import Foundation

/// How one scenario test ended.
package enum ScenarioOutcome: Sendable, Equatable, Codable {
    case passed
    /// An assertion failed in the test's body (luassert's, or busted's `fail`): the message names the
    /// file and line; the traceback is Lua's.
    case failed(message: String, traceback: String?)
    /// The test's body raised an error that is not an assertion's, or a hook failed (a before_each
    /// fails its test; a setup, after_each or teardown is an entry of its own): busted's "error".
    case error(message: String, traceback: String?)
    /// Declared with `pending`.
    case skipped
    /// The file failed at its top level (an error outside any `it`, in a `describe` body or around
    /// it), so its tests could not be collected; the result stands for the whole file. `line` is where
    /// the error was raised in that file, when Lua's message says so.
    case errored(message: String, traceback: String?, line: Int?)
}

/// One finished scenario test, or a file that failed at its top level (``ScenarioOutcome/errored(message:traceback:line:)``).
package struct ScenarioResult: Sendable, Equatable, Codable {
    /// The script that declared it.
    package var file: String
    /// The names of its `describe` blocks, then its own (none for an errored file).
    package var names: [String]
    package var outcome: ScenarioOutcome
    /// Time taken by its hooks and its body.
    package var duration: Duration
    /// The pass of the run it came from (`--repeat`), from 0.
    package var pass = 0

    package init(file: String, names: [String], outcome: ScenarioOutcome, duration: Duration, pass: Int = 0) {
        self.file = file
        self.names = names
        self.outcome = outcome
        self.duration = duration
        self.pass = pass
    }

    /// The names joined, as reports show them: `login keeps the session`.
    package var fullName: String { names.joined(separator: " ") }
}

/// The counts of a run.
package struct ScenarioSummary: Sendable, Equatable, Codable {
    package var passed = 0
    package var failed = 0
    package var skipped = 0
    /// Errors, as busted counts them: tests and hooks that raised an error other than an assertion's
    /// failure, and files that failed at their top level.
    package var errored = 0
    /// Tests not run because the run was stopped (by its time limit) before them.
    package var notRun = 0
    /// Why the run was stopped before its end, in the report's words; `nil` when it ran to the end.
    package var stopReason: String?
    package var duration: Duration = .zero

    package init() {}

    /// The number of results reported: tests, and errored files.
    package var total: Int { passed + failed + skipped + errored }

    /// Whether anything failed: a test, or a file at its top level, or the run was stopped.
    package var hasFailures: Bool { failed > 0 || errored > 0 || stopReason != nil }

    /// `N passed, N failed` and, when there are some, `, N errored`, `, N skipped` and `, N not run`,
    /// then why the run stopped early.
    package var line: String {
        "\(passed) passed, \(failed) failed" + (errored > 0 ? ", \(errored) errored" : "")
            + (skipped > 0 ? ", \(skipped) skipped" : "") + (notRun > 0 ? ", \(notRun) not run" : "")
            + (stopReason.map { " (\($0))" } ?? "")
    }

    package mutating func add(_ result: ScenarioResult) {
        switch result.outcome {
        case .passed: passed += 1
        case .failed: failed += 1
        case .skipped: skipped += 1
        case .error, .errored: errored += 1
        }
        duration += result.duration
    }
}
