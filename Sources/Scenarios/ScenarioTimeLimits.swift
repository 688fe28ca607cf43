import Foundation
import Locking

/// Wall-clock limits on a scenario run: one on the whole run (loading the files included), one on each
/// of its stages (``ScenarioStage``: a file's top level, a block's body, each hook, each test's body). A run that reaches its limit stops: the test that was running
/// fails naming the limit, the tests after it are not run, and the report says so.
package struct ScenarioTimeLimits: Sendable {
    /// How long the whole run may take, from `start`; `nil` for no limit.
    package var run: Duration?
    /// How the run's limit was given, for messages (`--timeout 30s`).
    package var runLabel: String
    /// How long each test body, and each of its hooks, may take; `nil` for no limit.
    package var perTest: Duration?
    /// How the per-test limit was given, for messages (`--test-timeout 5s`).
    package var perTestLabel: String
    /// When the run's limit started counting.
    package var start: ContinuousClock.Instant
    /// Whether someone stopped the run (Ctrl-C, SIGTERM): it then stops as at its time limit, with
    /// ``stopLabel`` as the reason. Stopping also interrupts the Lua code running (``LuaInterrupter``).
    package var isStopped: @Sendable () -> Bool = { false }
    /// What stopped the run, for the report (`Ctrl-C`, `SIGTERM`), asked once it has stopped.
    package var stopLabel: @Sendable () -> String = { "Ctrl-C" }

    /// No limits.
    package static let none = ScenarioTimeLimits()

    /// Limits of `run` and `perTest`, the run's counted from `start`.
    package init(
        run: Duration? = nil, runLabel: String = "the run's time limit",
        perTest: Duration? = nil, perTestLabel: String = "the per-test time limit",
        start: ContinuousClock.Instant = .now
    ) {
        self.run = run
        self.runLabel = runLabel
        self.perTest = perTest
        self.perTestLabel = perTestLabel
        self.start = start
    }

    /// When the run must end, if it has a limit.
    var runDeadline: ContinuousClock.Instant? { run.map { start + $0 } }

    /// Whether the run's limit has passed.
    var runHasExpired: Bool { isStopped() || (runDeadline.map { ContinuousClock.now >= $0 } ?? false) }

    /// What stops the run, in the words the report uses.
    var runStopReason: String {
        if isStopped() { return "stopped by \(stopLabel())" }
        return "stopped by \(runLabel): the run took longer than \(Self.seconds(run ?? .zero))"
    }

    /// The limit that applies now to `stage`: the seconds left and the reason, or `nil` when there is
    /// none. The per-stage limit applies to every stage; the run's to all of them together.
    package func current(for stage: ScenarioStage) -> (seconds: Double, reason: String)? {
        // Stopped: whatever stage comes next stops at once (a stop that came between two stages would
        // otherwise be forgotten as the next call into Lua starts).
        if isStopped() { return (1e-6, "stopped by \(stopLabel())") }
        var chosen: (seconds: Double, reason: String)?
        if let deadline = runDeadline {
            let left = ContinuousClock.now.duration(to: deadline)
            chosen = (max(left.inSeconds, 1e-6), "the run took longer than \(Self.seconds(run ?? .zero)) (\(runLabel))")
        }
        if let perTest, chosen.map({ perTest.inSeconds < $0.seconds }) ?? true {
            chosen = (perTest.inSeconds, "\(stage.subject) took longer than \(Self.seconds(perTest)) (\(perTestLabel))")
        }
        return chosen
    }

    static func seconds(_ duration: Duration) -> String {
        let value = duration.inSeconds
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
