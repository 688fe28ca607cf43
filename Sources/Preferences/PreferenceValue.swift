package import Foundation

/// One value of a ``PreferencesStore``: the types a property list can hold.
///
/// Kept as an enum rather than `Any` so that a Bool never reads as an Int (or the reverse) and so that
/// the Lua runtime can map each case onto one Lua type without guessing.
package enum PreferenceValue: Sendable, Hashable {
    /// A Boolean (`<true/>`, `<false/>`).
    case bool(Bool)
    /// A signed 64-bit integer (`<integer>`).
    case int(Int)
    /// A double-precision number (`<real>`).
    case double(Double)
    /// A string (`<string>`).
    case string(String)
    /// Raw bytes (`<data>`).
    case data(Data)
    /// A point in time (`<date>`); property lists keep whole seconds in XML and full precision in binary.
    case date(Date)
    /// An ordered list of values (`<array>`).
    case array([PreferenceValue])
    /// String-keyed values (`<dict>`).
    case dictionary([String: PreferenceValue])
}

extension PreferenceValue {
    /// The Boolean, if this is `.bool`; an integer is never read as a Boolean.
    package var boolValue: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    /// The integer, if this is `.int`; a double is never truncated and a Boolean is never read as 0 or 1.
    package var intValue: Int? { if case .int(let value) = self { return value } else { return nil } }
    /// The number, if this is `.double`, or an `.int` widened to `Double` (the one widening allowed,
    /// because every plist writer may store a whole number as an integer).
    package var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: return nil
        }
    }
    /// The string, if this is `.string`.
    package var stringValue: String? { if case .string(let value) = self { return value } else { return nil } }
    /// The bytes, if this is `.data`.
    package var dataValue: Data? { if case .data(let value) = self { return value } else { return nil } }
    /// The date, if this is `.date`.
    package var dateValue: Date? { if case .date(let value) = self { return value } else { return nil } }
    /// The elements, if this is `.array`.
    package var arrayValue: [PreferenceValue]? { if case .array(let value) = self { return value } else { return nil } }
    /// The entries, if this is `.dictionary`.
    package var dictionaryValue: [String: PreferenceValue]? {
        if case .dictionary(let value) = self { return value } else { return nil }
    }

    /// The name of the case, for error messages ("expected int, found string").
    package var typeName: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .data: return "data"
        case .date: return "date"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }
}

extension PreferenceValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates a `.bool`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an `.int`.
    package init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a `.double`.
    package init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a `.string`.
    package init(stringLiteral value: String) { self = .string(value) }
    /// Creates an `.array`.
    package init(arrayLiteral elements: PreferenceValue...) { self = .array(elements) }
    /// Creates a `.dictionary`; a repeated key keeps its last value.
    package init(dictionaryLiteral elements: (String, PreferenceValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension PreferenceValue: CustomStringConvertible {
    /// A compact rendering for logs and error messages.
    package var description: String {
        switch self {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .data(let value): return "<\(value.count) bytes>"
        case .date(let value): return ISO8601DateFormatter().string(from: value)
        case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let values):
            let entries = values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.description)" }
            return "{" + entries.joined(separator: ", ") + "}"
        }
    }
}
