/// The tests of a run's files, as ``ScenarioRunner/load(_:)`` collected them, in file order.
package struct ScenarioSuite {
    /// Every test, and for each file that failed at its top level an entry in its place that reports
    /// the error (``ScenarioOutcome/errored(message:traceback:line:)``).
    package var tests: [ScenarioRunner.Test] = []
    /// The files that failed at their top level, in order.
    package var loadErrors: [ScenarioRunner.LoadError] = []
    /// Whether any file declared scenarios (a failing file counts when it had declared some first).
    /// Without any, the files were plain scripts and there is nothing to report.
    package var declaresScenarios = false

    package init() {}
}
