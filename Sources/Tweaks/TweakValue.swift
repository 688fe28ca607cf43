import Foundation

/// The value of a tweak: a Boolean, an integer, a double or a string, as in JustTweak's JSON, or a
/// structured value — an array or an object of those — for a flag that holds a whole configuration.
///
/// Reads are strict: ``boolValue`` is nil for an integer and ``intValue`` is nil for a Boolean or a
/// double. The one conversion allowed is integer-to-double widening in ``doubleValue``, because JSON
/// writers drop the fraction of whole numbers (`2.0` is often written `2`). There is no null: a field
/// with no value is left out of its object.
public enum TweakValue: Sendable, Hashable {
    /// A Boolean (`true`, `false`).
    case bool(Bool)
    /// An integer (a JSON number without fraction or exponent).
    case int(Int)
    /// A double (a JSON number with a fraction or exponent, or too large for `Int`).
    case double(Double)
    /// A string.
    case string(String)
    /// An array (a JSON array), in order.
    case array([TweakValue])
    /// An object (a JSON object): field names to values.
    case object([String: TweakValue])

    /// The Boolean, only if this is `.bool`.
    public var boolValue: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    /// The integer, only if this is `.int` (never a truncated double, never a Boolean as 0 or 1).
    public var intValue: Int? { if case .int(let value) = self { return value } else { return nil } }
    /// The number if this is `.double`, or an `.int` widened to `Double`.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: return nil
        }
    }
    /// The string, only if this is `.string`.
    public var stringValue: String? { if case .string(let value) = self { return value } else { return nil } }
    /// The elements, only if this is `.array`.
    public var arrayValue: [TweakValue]? { if case .array(let value) = self { return value } else { return nil } }
    /// The fields, only if this is `.object`.
    public var objectValue: [String: TweakValue]? { if case .object(let value) = self { return value } else { return nil } }

    /// The name of the case: "bool", "int", "double", "string", "array" or "object", for messages and
    /// for Lua.
    public var typeName: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Whether this is an array or an object.
    package var isStructured: Bool {
        switch self {
        case .array, .object: return true
        case .bool, .int, .double, .string: return false
        }
    }

    /// Whether a value of this one's type may replace it: the same case, or a number for a number
    /// (JSON writers drop the fraction of whole doubles). Structured values only need the same shape
    /// at the top (array or object); what is inside is the reader's to decode.
    package func acceptsType(of other: TweakValue) -> Bool {
        switch (self, other) {
        case (.bool, .bool), (.string, .string), (.array, .array), (.object, .object): return true
        case (.int, .int), (.double, .double), (.double, .int): return true
        default: return false
        }
    }
}

extension TweakValue: CustomStringConvertible {
    /// The value as it would be written in JSON on one line, object fields sorted by name (strings
    /// quoted without escapes, for messages; ``jsonText`` is exact JSON).
    public var description: String {
        switch self {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    /// The value as exact JSON on one line, object fields sorted by name.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a tree of JSON values cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? description
    }
}

extension TweakValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates an `.array`.
    public init(arrayLiteral elements: TweakValue...) { self = .array(elements) }
    /// Creates an `.object`; a name given twice keeps its last value.
    public init(dictionaryLiteral fields: (String, TweakValue)...) {
        self = .object(Dictionary(fields, uniquingKeysWith: { _, last in last }))
    }
    /// Creates a `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an `.int`.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension TweakValue: Codable {
    /// Decodes a JSON value: a Boolean, an integer, a double, a string, an array or an object of those.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TweakValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: TweakValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a tweak value must be a Boolean, a number, a string, an array or an object (null is none of them)")
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension TweakValue {
    /// The value decoded as `type`, through its `Decodable` conformance.
    ///
    /// - Throws: `DecodingError`, whose coding path names the field that did not fit.
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }

    /// The value `value` encodes to, through its `Encodable` conformance (by way of JSON, so a whole
    /// `Double` such as `2.0` becomes the integer `2`; decoding reads it back as the `Double`).
    ///
    /// - Throws: `EncodingError`, or a `DecodingError` when `value` encodes to something no tweak value
    ///   holds (a null).
    public init<T: Encodable>(encoding value: T) throws {
        self = try JSONDecoder().decode(TweakValue.self, from: JSONEncoder().encode(value))
    }
}
