/// A targeting rule compiled once, when its file is loaded (``LogicCompiler``): a tree whose operators
/// are resolved and whose `var` paths are split, so that an evaluation parses nothing.
indirect enum LogicExpression: Sendable {
    /// A constant (a number, a string, an array of constants...).
    case literal(JSONValue)
    /// An array whose elements are computed.
    case array([LogicExpression])
    /// `var` with a path known at load time, and the default for a missing value.
    case variable(VariablePath, default: LogicExpression?)
    /// `var` whose path is computed (`{"var": {"cat": [...]}}`).
    case computedVariable(LogicExpression, default: LogicExpression?)
    /// Any other operator and its arguments, not yet evaluated (some operators evaluate only some).
    case operation(LogicOperator, [LogicExpression])

    /// The constant this expression always is, if it is one.
    var constant: JSONValue? {
        if case .literal(let value) = self { return value } else { return nil }
    }
}
