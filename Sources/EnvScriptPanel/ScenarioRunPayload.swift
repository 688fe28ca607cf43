import EnvScript
import Foundation
import Locking
import Scenarios

/// One run of scenarios as the panel shows it: which files, how far it got, each result so far.
struct ScenarioRunPayload: Encodable, Sendable {
    enum Phase: String, Encodable, Sendable {
        /// Loading the files or running their tests.
        case running
        /// Every test ran; `summary` counts them.
        case finished
        /// The run could not start; `error` says why.
        case error
    }

    /// Counts every run of the panel, from 1.
    let id: Int
    let files: [String]
    var phase: Phase = .running
    var results: [ScenarioResultPayload] = []
    var summary: ScenarioSummaryPayload?
    var error: String?
}

/// One finished test.
struct ScenarioResultPayload: Encodable, Sendable {
    let file: String
    /// The names of its `describe` blocks and its own, joined by spaces.
    let name: String
    /// `passed`, `failed` (an assertion), `error` (any other error, or a hook's) or `skipped` (or
    /// `errored`, for a file that failed at its top level).
    let outcome: String
    /// Why it failed: the file, line and message.
    let message: String?
    let traceback: String?
    let durationMilliseconds: Double

    init(_ result: ScenarioResult) {
        file = result.file
        name = result.fullName
        switch result.outcome {
        case .passed: (outcome, message, traceback) = ("passed", nil, nil)
        case .skipped: (outcome, message, traceback) = ("skipped", nil, nil)
        case .failed(let failure, let trace): (outcome, message, traceback) = ("failed", failure, trace)
        case .error(let failure, let trace): (outcome, message, traceback) = ("error", failure, trace)
        case .errored(let failure, let trace, _): (outcome, message, traceback) = ("errored", failure, trace)
        }
        durationMilliseconds = result.duration.inSeconds * 1000
    }

    enum CodingKeys: String, CodingKey {
        case file, name, outcome, message, traceback
        case durationMilliseconds = "duration_ms"
    }
}

/// The counts of a finished run.
struct ScenarioSummaryPayload: Encodable, Sendable {
    let passed: Int
    let failed: Int
    let skipped: Int
    /// `N passed, N failed`, as `envscript run` prints it.
    let line: String

    init(_ summary: ScenarioSummary) {
        passed = summary.passed
        failed = summary.failed
        skipped = summary.skipped
        line = summary.line
    }
}

/// An event of `/v1/scenarios/events`: the whole run (on connecting, when a run starts and when it
/// ends) or one result as it arrives.
enum ScenarioRunEvent: Sendable {
    case run(ScenarioRunPayload?)
    case result(run: Int, ScenarioResultPayload)

    /// The event in the `text/event-stream` format.
    func wireText() throws -> String {
        switch self {
        case .run(let run): try ServerSentEvents.frame("run", RunBody(run: run))
        case .result(let id, let result): try ServerSentEvents.frame("result", ResultBody(run: id, result: result))
        }
    }

    private struct RunBody: Encodable {
        let run: ScenarioRunPayload?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(run, forKey: .run) // `null` before the first run
        }
        enum CodingKeys: String, CodingKey { case run }
    }

    private struct ResultBody: Encodable {
        let run: Int
        let result: ScenarioResultPayload
    }
}
