import LuaBridge

/// The files of a run, as ``ScenarioRunner/load(_:)`` loaded them, in order: each file's top level has
/// run and declared its blocks and tests; the bodies of its blocks run when the run reaches them.
package struct ScenarioSuite {
    /// One file of the run.
    package struct File {
        /// The file's path, as reports name it.
        package var path: String
        /// The id of the file's root block in the scenario prelude (nil for a file that failed).
        var root: Int?
        /// Set for a file that failed at its top level: it runs as its error
        /// (``ScenarioOutcome/errored(message:traceback:line:)``).
        var loadError: LuaError?

        init(path: String, root: Int? = nil, loadError: LuaError? = nil) {
            self.path = path
            self.root = root
            self.loadError = loadError
        }
    }

    /// Every file, those that failed at their top level included.
    package var files: [File] = []
    /// The files that failed at their top level, in order.
    package var loadErrors: [ScenarioRunner.LoadError] = []
    /// Whether any file declared scenarios (a failing file counts when it had declared some first).
    /// Without any, the files were plain scripts and there is nothing to report.
    package var declaresScenarios = false

    package init() {}
}
