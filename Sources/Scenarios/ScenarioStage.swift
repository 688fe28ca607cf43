/// A part of a run that the per-stage time limit (`--test-timeout`) bounds on its own, named in the
/// message of a limit it reached.
package enum ScenarioStage: Sendable {
    /// The start-up scripts and their hooks, before any file.
    case startup
    /// A file's top level, where its blocks are declared.
    case fileTopLevel
    /// The body of a `describe` block, run as the walk reaches it.
    case blockBody
    /// A setup, teardown, before_each or after_each hook, or the bookkeeping around one.
    case hook
    /// A test's own body.
    case test

    /// What took too long, as the limit's message says it.
    var subject: String {
        switch self {
        case .startup: return "the start-up scripts"
        case .fileTopLevel: return "the file's top level"
        case .blockBody: return "the block's body"
        case .hook: return "a hook"
        case .test: return "the test"
        }
    }
}
