/// The value of a tweak: a Boolean, an integer, a double or a string, as in JustTweak's JSON.
///
/// Reads are strict: ``boolValue`` is nil for an integer and ``intValue`` is nil for a Boolean or a
/// double. The one conversion allowed is integer-to-double widening in ``doubleValue``, because JSON
/// writers drop the fraction of whole numbers (`2.0` is often written `2`).
public enum TweakValue: Sendable, Hashable {
    /// A Boolean (`true`, `false`).
    case bool(Bool)
    /// An integer (a JSON number without fraction or exponent).
    case int(Int)
    /// A double (a JSON number with a fraction or exponent, or too large for `Int`).
    case double(Double)
    /// A string.
    case string(String)

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

    /// The name of the case: "bool", "int", "double" or "string", for messages and for Lua.
    public var typeName: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        }
    }
}

extension TweakValue: CustomStringConvertible {
    /// The value as it would be written in JSON (strings quoted).
    public var description: String {
        switch self {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        }
    }
}

extension TweakValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
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
    /// Decodes a JSON scalar: a Boolean, then an integer, then a double, then a string.
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
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a tweak value must be a Boolean, a number or a string")
        }
    }

    /// Encodes the value as a JSON scalar.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}
