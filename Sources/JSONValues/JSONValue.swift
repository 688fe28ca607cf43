/// A JSON value: what a flag holds, an evaluation context's attributes, a targeting rule's data, a
/// script's stored state and every body on the wire — one type for all of them.
///
/// **Numbers keep their kind.** An ``int(_:)`` is an integer and a ``double(_:)`` a floating-point
/// number, even when its value is whole (`2.0`). JSON text read by `init(jsonText:)` gives `.int` to a
/// number written without a fraction or an exponent that fits `Int`, and `.double` to any other;
/// ``jsonText`` writes a double with a fraction or an exponent, so text written here reads back as the
/// same value. The one conversion allowed is widening: ``doubleValue`` reads an `.int` too, because JSON
/// writers drop the fraction of whole numbers; nothing narrows a double to an integer.
///
/// **Null is a value** (``null``), as in JSON. Where a value must not be null — a flag's value, which
/// has none when it is missing — the reader says so (``containsNull``).
///
/// Its accessors are inlinable: flag lookups and targeting rules read values in other modules on their
/// hot paths.
public enum JSONValue: Sendable, Hashable {
    /// JSON's `null`.
    case null
    /// A Boolean (`true`, `false`).
    case bool(Bool)
    /// An integer (a JSON number without fraction or exponent).
    case int(Int)
    /// A floating-point number (a JSON number with a fraction or an exponent, or too large for `Int`),
    /// kept apart from integers even when its value is whole.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object: field names to values.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The Boolean, only if this is `.bool`.
    @inlinable public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The integer, only if this is `.int` (never a truncated double, never a Boolean as 0 or 1).
    @inlinable public var intValue: Int? { if case .int(let value) = self { value } else { nil } }
    /// The number if this is `.double`, or an `.int` widened to `Double`.
    @inlinable public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }
    /// The string, only if this is `.string`.
    @inlinable public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The elements, only if this is `.array`.
    @inlinable public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The fields, only if this is `.object`.
    @inlinable public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }

    /// The name of the case — "null", "bool", "int", "double", "string", "array" or "object" — for
    /// messages and for Lua.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Whether a null is in this value, at any depth: a flag's value may hold none.
    public var containsNull: Bool {
        switch self {
        case .null: true
        case .bool, .int, .double, .string: false
        case .array(let elements): elements.contains { $0.containsNull }
        case .object(let fields): fields.values.contains { $0.containsNull }
        }
    }

    /// Whether a value of this one's type may replace it: the same case, or a number for a double (JSON
    /// writers drop the fraction of whole doubles). Structured values only need the same shape at the
    /// top (array or object); what is inside is the reader's to decode.
    package func acceptsType(of other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null), (.bool, .bool), (.string, .string), (.array, .array), (.object, .object): true
        case (.int, .int), (.double, .double), (.double, .int): true
        default: false
        }
    }
}
