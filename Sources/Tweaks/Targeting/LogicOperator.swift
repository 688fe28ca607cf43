/// The operators a targeting rule may use: JsonLogic's standard ones and flagd's own (`fractional`,
/// `sem_ver`, `starts_with`, `ends_with`), by the name a rule writes.
enum LogicOperator: String, Sendable, CaseIterable {
    case variable = "var"
    case missing
    case missingSome = "missing_some"
    case ifThenElse = "if"
    case ternary = "?:"
    case looselyEqual = "=="
    case strictlyEqual = "==="
    case looselyNotEqual = "!="
    case strictlyNotEqual = "!=="
    case not = "!"
    case truthy = "!!"
    case or
    case and
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
    case min
    case max
    case cat
    case substr
    case `in`
    case merge
    case map
    case filter
    case reduce
    case all
    case none
    case some
    case fractional
    case semVer = "sem_ver"
    case startsWith = "starts_with"
    case endsWith = "ends_with"

    /// How many arguments the operator takes, when that is fixed enough to check at load time; nil for
    /// any number.
    var arity: ClosedRange<Int>? {
        switch self {
        case .variable: return 0...2
        case .missingSome: return 2...2
        case .looselyEqual, .strictlyEqual, .looselyNotEqual, .strictlyNotEqual: return 2...2
        case .not, .truthy: return 1...1
        case .less, .lessOrEqual: return 2...3
        case .greater, .greaterOrEqual: return 2...2
        case .subtract: return 1...2
        case .divide, .remainder: return 2...2
        case .substr: return 2...3
        case .in: return 2...2
        case .map, .filter, .all, .none, .some: return 2...2
        case .reduce: return 2...3
        case .semVer: return 3...3
        case .startsWith, .endsWith: return 2...2
        case .fractional: return 1...Int.max
        case .missing, .ifThenElse, .ternary, .or, .and, .add, .multiply, .min, .max, .cat, .merge: return nil
        }
    }

    /// "2 arguments", "2 or 3 arguments", "at least 1 argument".
    static func describe(_ arity: ClosedRange<Int>) -> String {
        func count(_ number: Int) -> String { number == 1 ? "1 argument" : "\(number) arguments" }
        if arity.upperBound == Int.max { return "at least " + count(arity.lowerBound) }
        if arity.lowerBound == arity.upperBound { return count(arity.lowerBound) }
        if arity.upperBound == arity.lowerBound + 1 { return "\(arity.lowerBound) or " + count(arity.upperBound) }
        return "\(arity.lowerBound) to " + count(arity.upperBound)
    }
}
