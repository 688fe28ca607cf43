package import Tweaks

extension TweakContext.Value {
    /// The context value of the same JSON: both have a null.
    package init(script: ScriptValue) {
        switch script {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(Self.init(script:)))
        case .object(let fields): self = .object(fields.mapValues(Self.init(script:)))
        }
    }
}

extension ScriptValue {
    /// The script value of the same JSON: both have a null.
    package init(_ value: TweakContext.Value) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(ScriptValue.init))
        case .object(let fields): self = .object(fields.mapValues(ScriptValue.init))
        }
    }
}
