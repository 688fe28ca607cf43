/// The `$evaluators` of one flagd file, each compiled once for all its flags (``LogicCompiler``):
/// a file whose thousand flags refer to one large evaluator holds one copy of it, not a thousand.
final class CompiledEvaluators {
    /// An evaluator compiled: its expression, the operations it stands for with its own references
    /// written out, and the problems found in it (each flag that refers to it reports them).
    struct Entry {
        let expression: LogicExpression
        let size: Int
        let problems: [LogicRuleProblem]
    }

    /// The evaluators compiled so far, by name.
    var entries: [String: Entry] = [:]
}
