/// Compiles a targeting rule, as parsed by ``JSONScanner``, into a ``LogicExpression``, once, when its
/// file is loaded: operators are looked up by name, `var` paths split, constant arrays folded, and
/// `{"$ref": "name"}` replaced by the flag set's evaluator of that name, compiled once per file
/// (``CompiledEvaluators``) and shared wherever a rule refers to it (a ``LogicExpression`` is a tree of
/// shared boxes).
/// Problems are collected with their positions (``problems``) rather than thrown, so that the reader
/// can decide what each means for the file.
///
/// Sharing keeps the compiled rule as small as its text, but evaluating it still walks each reference
/// every time: evaluators that each refer to the next one twice make a 1.7 KB file a rule of billions
/// of operations. So a rule's operations are counted as if every reference were written out, and a
/// rule past ``maximumExpandedSize`` is a problem that makes it unusable (``LogicRuleProblem/Kind/tooLarge``).
struct LogicCompiler {
    /// The flag set's shared rules (`$evaluators`), by name.
    let evaluators: [String: JSONScanner.Node]
    /// What was found wrong so far, in the order of the text.
    private(set) var problems: [LogicRuleProblem] = []
    /// The evaluators being expanded, to refuse one that refers to itself.
    private var expanding: [String] = []

    /// The evaluators compiled for the file, shared by the compilers of its rules.
    private let compiled: CompiledEvaluators
    /// The operations of the rule so far, every reference written out.
    private var size = 0
    /// Whether the rule has passed ``maximumExpandedSize`` (said once; the rest is not compiled).
    private var isTooLarge = false

    /// The deepest nesting of `$ref`s followed.
    private static let maximumReferenceDepth = 32
    /// The most operations (values and operators, every `$ref` written out) a rule may stand for.
    static let maximumExpandedSize = 100_000

    init(evaluators: [String: JSONScanner.Node], compiled: CompiledEvaluators = CompiledEvaluators()) {
        self.evaluators = evaluators
        self.compiled = compiled
    }

    /// The expression of `node`.
    mutating func compile(_ node: JSONScanner.Node) -> LogicExpression {
        if isTooLarge { return .literal(.null) }
        count(1, at: node.position)
        switch node.value {
        case .null: return .literal(.null)
        case .bool(let flag): return .literal(.bool(flag))
        case .int(let number): return .literal(.double(Double(number)))
        case .double(let number): return .literal(.double(number))
        case .string(let text):
            // A long literal costs its bytes, an operation per 16: `cat` of a 1 MB literal doubled
            // through `$ref`s would otherwise build gigabytes within the bound.
            count(text.utf8.count / 16, at: node.position)
            return .literal(.string(text))
        case .array(let elements):
            return Self.folded(elements.map { compile($0) })
        case .object(let members):
            guard members.count == 1, let member = members.first else {
                if members.count > 1 {
                    problems.append(LogicRuleProblem(
                        kind: .notAnOperation, position: node.position,
                        message: "an operation is an object of one operator, found keys \(members.map { "\"\($0.key)\"" }.joined(separator: ", "))"))
                }
                // Data, not compiled further: it costs what it holds.
                count(Self.dataSize(node), at: node.position)
                return .literal(Self.data(node))
            }
            return compileOperation(member, object: node)
        }
    }

    private mutating func compileOperation(_ member: JSONScanner.Member, object: JSONScanner.Node) -> LogicExpression {
        if member.key == "$ref" {
            guard case .string(let name) = member.node.value else {
                problems.append(LogicRuleProblem(
                    kind: .unknownOperator, position: member.node.position,
                    message: "\"$ref\" must name an evaluator of \"$evaluators\", found \(member.node.value.typeName)"))
                return .literal(.null)
            }
            return expandReference(name, at: member.node.position)
        }
        guard let op = LogicOperator(rawValue: member.key) else {
            let known = LogicOperator.allCases.map(\.rawValue)
            problems.append(LogicRuleProblem(
                kind: .unknownOperator, position: member.keyPosition,
                message: "unknown operator \"\(member.key)\"" + (NearNames.suggestions(for: member.key, among: known, limit: 1).first.map { "; did you mean \"\($0)\"?" } ?? "")))
            return .literal(.null)
        }
        let argumentNodes: [JSONScanner.Node]
        if case .array(let elements) = member.node.value { argumentNodes = elements } else { argumentNodes = [member.node] }
        if let arity = op.arity, !arity.contains(argumentNodes.count) {
            problems.append(LogicRuleProblem(
                kind: .arity, position: member.keyPosition,
                message: "\"\(op.rawValue)\" takes \(LogicOperator.describe(arity)), found \(argumentNodes.count)"))
        }
        let arguments = argumentNodes.map { compile($0) }
        if op == .variable { return variable(arguments) }
        return .operation(op, arguments)
    }

    private mutating func expandReference(_ name: String, at position: JSONScanner.Position) -> LogicExpression {
        guard let evaluator = evaluators[name] else {
            let suggestion = NearNames.suggestions(for: name, among: Array(evaluators.keys), limit: 1).first.map { "; did you mean \"\($0)\"?" } ?? ""
            problems.append(LogicRuleProblem(
                kind: .missingEvaluator, position: position, message: "no evaluator \"\(name)\" in \"$evaluators\"\(suggestion)"))
            return .literal(.null)
        }
        guard !expanding.contains(name), expanding.count < Self.maximumReferenceDepth else {
            problems.append(LogicRuleProblem(
                kind: .missingEvaluator, position: position,
                message: "evaluator \"\(name)\" refers to itself (through \(expanding.joined(separator: " → ")))"))
            return .literal(.null)
        }
        if let known = compiled.entries[name] {
            problems += known.problems
            count(known.size, at: position)
            return known.expression
        }
        expanding.append(name)
        defer { expanding.removeLast() }
        let sizeBefore = size
        let problemsBefore = problems.count
        let expression = compile(evaluator)
        // One cut short by this rule's bound is not the evaluator: it is compiled again for the next.
        if !isTooLarge {
            compiled.entries[name] = CompiledEvaluators.Entry(
                expression: expression, size: size - sizeBefore, problems: Array(problems[problemsBefore...]))
        }
        return expression
    }

    /// Counts `operations` more of the rule, at `position`; past the bound, the rule is too large.
    private mutating func count(_ operations: Int, at position: JSONScanner.Position) {
        size += operations
        guard size > Self.maximumExpandedSize, !isTooLarge else { return }
        isTooLarge = true
        problems.append(LogicRuleProblem(
            kind: .tooLarge, position: position,
            message: "the rule stands for more than \(Self.maximumExpandedSize) operations with every \"$ref\" written out (evaluators that refer to others several times multiply); share less, or split the rule"))
    }

    /// `var`: a path known now is split now.
    private func variable(_ arguments: [LogicExpression]) -> LogicExpression {
        let fallback = arguments.count > 1 ? arguments[1] : nil
        guard let pathExpression = arguments.first else { return .variable(VariablePath(""), default: fallback) }
        if let constant = pathExpression.constant, let path = VariablePath(argument: constant) {
            return .variable(path, default: fallback)
        }
        return .computedVariable(pathExpression, default: fallback)
    }

    /// An array of expressions: a constant when all of them are.
    private static func folded(_ elements: [LogicExpression]) -> LogicExpression {
        var constants: [JSONValue] = []
        constants.reserveCapacity(elements.count)
        for element in elements {
            guard let constant = element.constant else { return .array(elements) }
            constants.append(constant)
        }
        return .literal(.array(constants))
    }

    /// What a value taken as data costs against ``maximumExpandedSize``: a value each, and an extra one
    /// per 16 bytes of text.
    private static func dataSize(_ node: JSONScanner.Node) -> Int {
        switch node.value {
        case .null, .bool, .int, .double: return 1
        case .string(let text): return 1 + text.utf8.count / 16
        case .array(let elements): return elements.reduce(1) { $0 + dataSize($1) }
        case .object(let members): return members.reduce(1) { $0 + 1 + $1.key.utf8.count / 16 + dataSize($1.node) }
        }
    }

    /// A parsed JSON value as data, unevaluated.
    static func data(_ node: JSONScanner.Node) -> JSONValue {
        switch node.value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .double(Double(number))
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(data))
        case .object(let members):
            var fields: [String: JSONValue] = [:]
            for member in members { fields[member.key] = data(member.node) }
            return .object(fields)
        }
    }
}
