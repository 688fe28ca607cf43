/// Something wrong with a targeting rule, found when it is compiled, and where.
struct LogicRuleProblem: Sendable, Hashable {
    /// What kind of problem: it decides whether a flagd file is refused (`FlagdTweakProvider.InvalidRules`).
    enum Kind: Sendable, Hashable {
        /// An operator JsonLogic and flagd do not have: the rule cannot be evaluated.
        case unknownOperator
        /// `{"$ref": name}` with no evaluator of that name: the rule cannot be evaluated.
        case missingEvaluator
        /// An operator given a number of arguments it never takes; JsonLogic evaluates it anyway (the
        /// missing ones are null, flagd's operators answer null).
        case arity
        /// An object of several keys where an operation was expected; JsonLogic takes it as data.
        case notAnOperation
        /// A rule that stands for more operations than ``LogicCompiler/maximumExpandedSize`` once its
        /// references are written out: it is never evaluated.
        case tooLarge
    }

    /// What kind.
    let kind: Kind
    /// Where, in the file.
    let position: JSONScanner.Position
    /// What is wrong, in words.
    let message: String

    /// Whether the rule cannot be evaluated at all with this problem.
    var makesRuleUnusable: Bool { kind == .unknownOperator || kind == .missingEvaluator || kind == .tooLarge }
}
