package import Tweaks

extension TweakValue {
    /// The tweak value of plain script data (or JSON); nil when a null is in it, at any depth, since
    /// there is no null among tweak values.
    package init?(script: ScriptValue) {
        switch script {
        case .null: return nil
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements):
            var converted: [TweakValue] = []
            for element in elements {
                guard let value = TweakValue(script: element) else { return nil }
                converted.append(value)
            }
            self = .array(converted)
        case .object(let fields):
            var converted: [String: TweakValue] = [:]
            for (name, field) in fields {
                guard let value = TweakValue(script: field) else { return nil }
                converted[name] = value
            }
            self = .object(converted)
        }
    }
}
