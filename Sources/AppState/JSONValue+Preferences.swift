import JSONValues
package import Preferences

/// JSON values as state: converted to and from the preferences that hold stored state directly, in the
/// form their `Codable` encoding has when number kinds are kept (`JSONValue.keepsNumberKinds`): nil as `Preferences/PreferenceValue/nullMarker`, a
/// float with an integral value (or not finite) as `{"$float": "2.0"}` so it does not read back as an
/// integer, tables as arrays and dictionaries.
extension JSONValue: PreferenceValueConvertible {
    /// The preference value of this value.
    package var preferenceValue: PreferenceValue {
        switch self {
        case .null: return .string(PreferenceValue.nullMarker)
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number) where Self.needsFloatMarker(number):
            return .dictionary([Self.floatMarker: .string("\(number)")])
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let values): return .array(values.map(\.preferenceValue))
        case .object(let fields): return .dictionary(fields.mapValues(\.preferenceValue))
        }
    }

    /// The value `stored` holds, when it has one of the forms ``preferenceValue`` makes; nil for
    /// data, dates, a float with an integral value written without the marker, or a dictionary with a
    /// marker among other keys — which the `Codable` decoding decides, as it always did.
    package init?(preferenceValue stored: PreferenceValue) {
        switch stored {
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number):
            guard !Self.needsFloatMarker(number) else { return nil }
            self = .double(number)
        case .string(let text): self = text == PreferenceValue.nullMarker ? .null : .string(text)
        case .array(let elements):
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = JSONValue(preferenceValue: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case .dictionary(let entries):
            if let marker = entries[Self.floatMarker] {
                guard entries.count == 1, case .string(let text) = marker, let number = Double(text) else { return nil }
                self = .double(number)
                return
            }
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(entries.count)
            for (key, entry) in entries {
                guard let value = JSONValue(preferenceValue: entry) else { return nil }
                fields[key] = value
            }
            self = .object(fields)
        case .data, .date: return nil
        }
    }
}
