import Preferences

extension JSONValue {
    /// The value as the overrides' preferences store keeps it: scalars as themselves, arrays and objects
    /// as arrays and dictionaries. A flag's value holds no null; one would be kept as the store's null
    /// marker.
    var storedOverride: PreferenceValue {
        switch self {
        case .null: return .string(PreferenceValue.nullMarker)
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements): return .array(elements.map(\.storedOverride))
        case .object(let fields): return .dictionary(fields.mapValues(\.storedOverride))
        }
    }

    /// The tweak value a stored preference holds, or nil when it holds something no tweak can (data or
    /// a date, at any depth).
    init?(storedOverride preference: PreferenceValue) {
        switch preference {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let elements):
            var converted: [JSONValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let value = JSONValue(storedOverride: element) else { return nil }
                converted.append(value)
            }
            self = .array(converted)
        case .dictionary(let fields):
            var converted: [String: JSONValue] = [:]
            for (name, field) in fields {
                guard let value = JSONValue(storedOverride: field) else { return nil }
                converted[name] = value
            }
            self = .object(converted)
        case .data, .date: return nil
        }
    }
}
