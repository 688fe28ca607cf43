import Foundation

/// What a rule's `var` reads: at the top, a flag's evaluation context with flagd's additions (the
/// context's attributes, `targetingKey`, and `$flagd.flagKey` and `$flagd.timestamp`); inside `map`,
/// `filter`, `all`, `none` and `some`, the element at hand; inside `reduce`, `current` and `accumulator`.
///
/// The context's attributes stay as they are (integers and all): a path is followed in them and only the value
/// it reaches is converted, so an evaluation copies nothing of the context.
enum LogicData {
    case context(FlagEvaluationInput)
    case value(JSONValue)
    case reduction(current: JSONValue, accumulator: JSONValue)

    /// The value at `path`, or nil when there is none.
    func value(at path: VariablePath) -> JSONValue? {
        let steps = path.steps
        switch self {
        case .value(let value):
            return Self.follow(value, steps[...])
        case .reduction(let current, let accumulator):
            guard let first = steps.first else {
                return .object(["current": current, "accumulator": accumulator])
            }
            switch first.key {
            case "current": return Self.follow(current, steps.dropFirst())
            case "accumulator": return Self.follow(accumulator, steps.dropFirst())
            default: return nil
            }
        case .context(let input):
            guard let first = steps.first else { return input.wholeObject }
            switch first.key {
            case FlagEvaluationInput.flagdField:
                guard steps.count > 1 else { return input.flagdObject }
                let value: JSONValue
                switch steps[1].key {
                case "flagKey": value = .string(input.flagKey)
                case "timestamp": value = .double(Double(input.timestamp))
                default: return nil
                }
                return Self.follow(value, steps.dropFirst(2))
            case TweakContext.targetingKeyField:
                if let key = input.context.targetingKey {
                    return Self.follow(.string(key), steps.dropFirst())
                }
                fallthrough
            default:
                guard let attribute = input.context.attributes[first.key] else { return nil }
                return Self.follow(attribute, steps.dropFirst()).map { $0.javaScriptNumbers }
            }
        }
    }

    /// The value `steps` reach from `value`, or nil when one is missing. One walk for the rules' own
    /// values and for the context's, which are converted only once reached.
    private static func follow(_ value: JSONValue, _ steps: ArraySlice<VariablePath.Step>) -> JSONValue? {
        var current = value
        for step in steps {
            switch current {
            case .object(let fields):
                guard let next = fields[step.key] else { return nil }
                current = next
            case .array(let elements):
                guard let index = step.index, index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}

/// The data a flag's targeting is evaluated against: the flag's key and the evaluation context.
struct FlagEvaluationInput {
    /// The object flagd adds to the data (`$flagd`).
    static let flagdField = "$flagd"

    /// The flag being evaluated (`$flagd.flagKey`).
    let flagKey: String
    /// The evaluation context.
    let context: TweakContext

    /// The time of the evaluation in Unix seconds (`$flagd.timestamp`), read when a rule asks for it.
    var timestamp: Int { Int(time(nil)) }

    /// `$flagd` as an object.
    var flagdObject: JSONValue {
        .object(["flagKey": .string(flagKey), "timestamp": .double(Double(timestamp))])
    }

    /// The whole data as one object (`{"var": ""}`).
    var wholeObject: JSONValue {
        var fields = context.jsonObject.mapValues { $0.javaScriptNumbers }
        fields[Self.flagdField] = flagdObject
        return .object(fields)
    }
}
