import Preferences

extension TweakValue {
    /// The value as a preferences store keeps it: scalars as themselves, arrays and objects as arrays
    /// and dictionaries.
    var preferenceValue: PreferenceValue {
        switch self {
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements): return .array(elements.map(\.preferenceValue))
        case .object(let fields): return .dictionary(fields.mapValues(\.preferenceValue))
        }
    }

    /// The tweak value a stored preference holds, or nil when it holds something no tweak can (data or
    /// a date, at any depth).
    init?(preference: PreferenceValue) {
        switch preference {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let elements):
            var converted: [TweakValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let value = TweakValue(preference: element) else { return nil }
                converted.append(value)
            }
            self = .array(converted)
        case .dictionary(let fields):
            var converted: [String: TweakValue] = [:]
            for (name, field) in fields {
                guard let value = TweakValue(preference: field) else { return nil }
                converted[name] = value
            }
            self = .object(converted)
        case .data, .date: return nil
        }
    }
}
