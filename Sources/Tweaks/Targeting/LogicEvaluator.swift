/// Evaluates a compiled rule (``LogicExpression``) against data, with JsonLogic's semantics: operators
/// that decide (`if`, `and`, `or`, the array operators) evaluate only the arguments they need; the others
/// evaluate all of theirs first. It never fails: what JsonLogic leaves undefined is null.
enum LogicEvaluator {
    /// The value of `expression` for `data`.
    static func evaluate(_ expression: LogicExpression, _ data: LogicData) -> JSONValue {
        switch expression {
        case .literal(let value):
            return value
        case .array(let elements):
            return .array(elements.map { evaluate($0, data) })
        case .variable(let path, let fallback):
            if let found = data.value(at: path), found != .null { return found }
            return fallback.map { evaluate($0, data) } ?? .null
        case .computedVariable(let pathExpression, let fallback):
            if let path = VariablePath(argument: evaluate(pathExpression, data)),
                let found = data.value(at: path), found != .null
            {
                return found
            }
            return fallback.map { evaluate($0, data) } ?? .null
        case .operation(let op, let arguments):
            return operate(op, arguments, data)
        }
    }

    private static func argument(_ arguments: [LogicExpression], _ index: Int, _ data: LogicData) -> JSONValue {
        index < arguments.count ? evaluate(arguments[index], data) : .null
    }

    private static func operate(_ op: LogicOperator, _ arguments: [LogicExpression], _ data: LogicData) -> JSONValue {
        switch op {
        case .variable:
            // Compiled to `.variable` or `.computedVariable`; kept for completeness.
            return .null
        case .ifThenElse, .ternary:
            var index = 0
            while index + 1 < arguments.count {
                if evaluate(arguments[index], data).isTruthy { return evaluate(arguments[index + 1], data) }
                index += 2
            }
            return index < arguments.count ? evaluate(arguments[index], data) : .null
        case .or:
            var last = JSONValue.null
            for argument in arguments {
                last = evaluate(argument, data)
                if last.isTruthy { return last }
            }
            return last
        case .and:
            var last = JSONValue.null
            for argument in arguments {
                last = evaluate(argument, data)
                if !last.isTruthy { return last }
            }
            return last
        case .not:
            return .bool(!argument(arguments, 0, data).isTruthy)
        case .truthy:
            return .bool(argument(arguments, 0, data).isTruthy)
        case .looselyEqual:
            return .bool(argument(arguments, 0, data).looselyEquals(argument(arguments, 1, data)))
        case .looselyNotEqual:
            return .bool(!argument(arguments, 0, data).looselyEquals(argument(arguments, 1, data)))
        case .strictlyEqual:
            return .bool(argument(arguments, 0, data).strictlyEquals(argument(arguments, 1, data)))
        case .strictlyNotEqual:
            return .bool(!argument(arguments, 0, data).strictlyEquals(argument(arguments, 1, data)))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return .bool(compare(op, arguments, data))
        case .add:
            var sum = 0.0
            for argument in arguments { sum += evaluate(argument, data).numberValue }
            return .double(sum)
        case .multiply:
            guard !arguments.isEmpty else { return .null }
            var product = 1.0
            for argument in arguments { product *= evaluate(argument, data).numberValue }
            return .double(product)
        case .subtract:
            let first = argument(arguments, 0, data).numberValue
            if arguments.count == 1 { return .double(-first) }
            return .double(first - argument(arguments, 1, data).numberValue)
        case .divide:
            return .double(argument(arguments, 0, data).numberValue / argument(arguments, 1, data).numberValue)
        case .remainder:
            return .double(argument(arguments, 0, data).numberValue.truncatingRemainder(dividingBy: argument(arguments, 1, data).numberValue))
        case .min, .max:
            guard !arguments.isEmpty else { return .null }
            var result = op == .min ? Double.infinity : -Double.infinity
            for argument in arguments {
                let number = evaluate(argument, data).numberValue
                if number.isNaN { return .double(.nan) }
                result = op == .min ? Swift.min(result, number) : Swift.max(result, number)
            }
            return .double(result)
        case .cat:
            var text = ""
            for argument in arguments {
                let value = evaluate(argument, data)
                if value != .null { text += value.textValue }
            }
            return .string(text)
        case .substr:
            return substring(argument(arguments, 0, data), argument(arguments, 1, data), arguments.count > 2 ? argument(arguments, 2, data) : nil)
        case .in:
            let needle = argument(arguments, 0, data)
            switch argument(arguments, 1, data) {
            case .string(let haystack): return .bool(SubstringSearch.contains(haystack, needle.textValue))
            case .array(let elements): return .bool(elements.contains { $0.strictlyEquals(needle) })
            default: return .bool(false)
            }
        case .merge:
            var merged: [JSONValue] = []
            for argument in arguments {
                let value = evaluate(argument, data)
                if case .array(let elements) = value { merged.append(contentsOf: elements) } else { merged.append(value) }
            }
            return .array(merged)
        case .missing:
            return .array(missing(arguments.map { evaluate($0, data) }, data))
        case .missingSome:
            let needed = argument(arguments, 0, data).numberValue
            let keys = argument(arguments, 1, data).arrayValue ?? []
            let absent = missing([.array(keys)], data)
            return Double(keys.count - absent.count) >= needed ? .array([]) : .array(absent)
        case .map, .filter, .all, .none, .some:
            return iterate(op, arguments, data)
        case .reduce:
            let elements = argument(arguments, 0, data).arrayValue ?? []
            var accumulator = argument(arguments, 2, data)
            guard arguments.count > 1 else { return accumulator }
            for element in elements {
                accumulator = evaluate(arguments[1], .reduction(current: element, accumulator: accumulator))
            }
            return accumulator
        case .fractional:
            return FractionalSplit.choose(arguments.map { evaluate($0, data) }, data: data)
        case .semVer:
            return SemanticVersion.operate(arguments.map { evaluate($0, data) })
        case .startsWith, .endsWith:
            guard arguments.count == 2, case .string(let text) = evaluate(arguments[0], data),
                case .string(let affix) = evaluate(arguments[1], data)
            else { return .null }
            return .bool(op == .startsWith ? text.hasPrefix(affix) : text.hasSuffix(affix))
        }
    }

    private static func compare(_ op: LogicOperator, _ arguments: [LogicExpression], _ data: LogicData) -> Bool {
        func holds(_ order: Int?) -> Bool {
            guard let order else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
        let first = argument(arguments, 0, data), second = argument(arguments, 1, data)
        guard holds(first.relationalOrder(to: second)) else { return false }
        // The "between" form: `{"<": [a, b, c]}` is a < b < c.
        if arguments.count > 2, op == .less || op == .lessOrEqual {
            return holds(second.relationalOrder(to: evaluate(arguments[2], data)))
        }
        return true
    }

    private static func substring(_ source: JSONValue, _ start: JSONValue, _ length: JSONValue?) -> JSONValue {
        let characters = Array(source.textValue)
        let count = characters.count
        let startNumber = start.numberValue
        var from = startNumber.isNaN ? 0 : Int(Swift.max(Swift.min(startNumber, Double(count)), -Double(count)))
        if from < 0 { from = Swift.max(count + from, 0) }
        var to = count
        if let length {
            let lengthNumber = length.numberValue
            let clamped = lengthNumber.isNaN ? 0 : Int(Swift.max(Swift.min(lengthNumber, Double(count)), -Double(count)))
            to = clamped < 0 ? count + clamped : Swift.min(from + clamped, count)
        }
        guard from < to else { return .string("") }
        return .string(String(characters[from..<to]))
    }

    /// The keys (the elements of the first argument when it is an array, else the arguments) whose
    /// value is null or empty text.
    private static func missing(_ values: [JSONValue], _ data: LogicData) -> [JSONValue] {
        let keys: [JSONValue]
        if case .array(let elements)? = values.first { keys = elements } else { keys = values }
        return keys.filter { key in
            guard let path = VariablePath(argument: key) else { return true }
            switch data.value(at: path) {
            case nil, .null?, .string("")?: return true
            default: return false
            }
        }
    }

    private static func iterate(_ op: LogicOperator, _ arguments: [LogicExpression], _ data: LogicData) -> JSONValue {
        let elements = argument(arguments, 0, data).arrayValue ?? []
        guard arguments.count > 1 else { return op == .map || op == .filter ? .array([]) : .bool(op == .none) }
        let body = arguments[1]
        switch op {
        case .map:
            return .array(elements.map { evaluate(body, .value($0)) })
        case .filter:
            return .array(elements.filter { evaluate(body, .value($0)).isTruthy })
        case .all:
            // JsonLogic: `all` of no elements is false.
            return .bool(!elements.isEmpty && elements.allSatisfy { evaluate(body, .value($0)).isTruthy })
        case .none:
            return .bool(!elements.contains { evaluate(body, .value($0)).isTruthy })
        default:
            return .bool(elements.contains { evaluate(body, .value($0)).isTruthy })
        }
    }
}
