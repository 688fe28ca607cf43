import Foundation

/// What a rule's `var` reads: at the top, a flag's evaluation context with flagd's additions (the
/// context's attributes, `targetingKey`, and `$flagd.flagKey` and `$flagd.timestamp`); inside `map`,
/// `filter`, `all`, `none` and `some`, the element at hand; inside `reduce`, `current` and `accumulator`.
///
/// The context's attributes stay ``TweakContext/Value``s: a path is followed in them and only the value
/// it reaches is converted, so an evaluation copies nothing of the context.
enum LogicData {
    case context(FlagEvaluationInput)
    case value(LogicValue)
    case reduction(current: LogicValue, accumulator: LogicValue)

    /// The value at `path`, or nil when there is none.
    func value(at path: VariablePath) -> LogicValue? {
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
                let value: LogicValue
                switch steps[1].key {
                case "flagKey": value = .string(input.flagKey)
                case "timestamp": value = .number(Double(input.timestamp))
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
                return Self.follow(attribute, steps.dropFirst()).map(LogicValue.init)
            }
        }
    }

    /// The value `steps` reach from `value`, or nil when one is missing. One walk for the rules' own
    /// values and for the context's, which are converted only once reached.
    private static func follow<Value: PathFollowable>(_ value: Value, _ steps: ArraySlice<VariablePath.Step>) -> Value? {
        var current = value
        for step in steps {
            guard let next = current.element(at: step) else { return nil }
            current = next
        }
        return current
    }
}

/// A JSON value a `var` path can go into: an object by a step's key, an array by its index.
private protocol PathFollowable {
    /// The fields of an object; nil for any other value.
    var objectFields: [String: Self]? { get }
    /// The elements of an array; nil for any other value.
    var arrayElements: [Self]? { get }
}

extension PathFollowable {
    /// The element `step` names, or nil when there is none.
    func element(at step: VariablePath.Step) -> Self? {
        if let fields = objectFields { return fields[step.key] }
        guard let elements = arrayElements, let index = step.index, index < elements.count else { return nil }
        return elements[index]
    }
}

extension LogicValue: PathFollowable {
    fileprivate var objectFields: [String: LogicValue]? { if case .object(let fields) = self { fields } else { nil } }
}

extension TweakContext.Value: PathFollowable {
    fileprivate var objectFields: [String: TweakContext.Value]? { if case .object(let fields) = self { fields } else { nil } }
    fileprivate var arrayElements: [TweakContext.Value]? { if case .array(let elements) = self { elements } else { nil } }
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
    var flagdObject: LogicValue {
        .object(["flagKey": .string(flagKey), "timestamp": .number(Double(timestamp))])
    }

    /// The whole data as one object (`{"var": ""}`).
    var wholeObject: LogicValue {
        var fields = context.jsonObject.mapValues(LogicValue.init)
        fields[Self.flagdField] = flagdObject
        return .object(fields)
    }
}
