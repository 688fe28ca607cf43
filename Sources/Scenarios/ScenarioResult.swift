import EnvScript
import Foundation

/// How one scenario test ended.
public enum ScenarioOutcome: Sendable, Equatable {
    case passed
    /// An assertion or an error failed the test (or one of its hooks): the message names the file and
    /// line; the traceback is Lua's.
    case failed(message: String, traceback: String?)
    /// Declared with `pending`.
    case skipped
}

/// One finished scenario test.
public struct ScenarioResult: Sendable, Equatable {
    /// The script that declared it.
    public var file: String
    /// The names of its `describe` blocks, then its own.
    public var names: [String]
    public var outcome: ScenarioOutcome
    /// Time taken by its hooks and its body.
    public var duration: Duration

    /// The names joined, as reports show them: `login keeps the session`.
    public var fullName: String { names.joined(separator: " ") }
}

/// The counts of a run.
public struct ScenarioSummary: Sendable, Equatable {
    public var passed = 0
    public var failed = 0
    public var skipped = 0
    public var duration: Duration = .zero

    /// The number of tests reported.
    public var total: Int { passed + failed + skipped }

    /// `N passed, N failed` and, when some were skipped, `, N skipped`.
    public var line: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }

    mutating func add(_ result: ScenarioResult) {
        switch result.outcome {
        case .passed: passed += 1
        case .failed: failed += 1
        case .skipped: skipped += 1
        }
        duration += result.duration
    }
}
