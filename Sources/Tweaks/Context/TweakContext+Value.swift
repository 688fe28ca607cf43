extension TweakContext {
    /// An attribute's value: any JSON value, null included. OpenFeature's contexts may hold nulls, inside
    /// lists and structures too, and flagd's rules see them (a `fractional` split hashes them) — unlike a
    /// flag's value (``TweakValue``), which is never null.
    public enum Value: Sendable, Hashable {
        /// JSON's `null`.
        case null
        /// A Boolean.
        case bool(Bool)
        /// A whole number.
        case int(Int)
        /// A number with a fraction or an exponent.
        case double(Double)
        /// A string.
        case string(String)
        /// A list.
        case array([Value])
        /// A structure, by field name.
        case object([String: Value])

        /// The value of a flag's value.
        public init(_ value: TweakValue) {
            switch value {
            case .bool(let flag): self = .bool(flag)
            case .int(let number): self = .int(number)
            case .double(let number): self = .double(number)
            case .string(let text): self = .string(text)
            case .array(let elements): self = .array(elements.map(Value.init))
            case .object(let fields): self = .object(fields.mapValues(Value.init))
            }
        }

        /// The flag value of the same JSON, or nil when it is null or holds a null.
        package var tweakValue: TweakValue? {
            switch self {
            case .null: return nil
            case .bool(let flag): return .bool(flag)
            case .int(let number): return .int(number)
            case .double(let number): return .double(number)
            case .string(let text): return .string(text)
            case .array(let elements):
                var converted: [TweakValue] = []
                converted.reserveCapacity(elements.count)
                for element in elements {
                    guard let value = element.tweakValue else { return nil }
                    converted.append(value)
                }
                return .array(converted)
            case .object(let fields):
                var converted: [String: TweakValue] = [:]
                for (name, field) in fields {
                    guard let value = field.tweakValue else { return nil }
                    converted[name] = value
                }
                return .object(converted)
            }
        }

        /// The text of a string value, else nil.
        public var stringValue: String? { if case .string(let text) = self { text } else { nil } }

        /// The name of the value's type, as errors say it: `null`, or the name ``TweakValue/typeName`` gives.
        public var typeName: String {
            switch self {
            case .null: return "null"
            case .bool: return "bool"
            case .int: return "int"
            case .double: return "double"
            case .string: return "string"
            case .array: return "array"
            case .object: return "object"
            }
        }

        /// The JSON text: whole doubles keep a fraction (`2.0`), object fields are sorted, as
        /// ``TweakValue/exactJSON`` writes them.
        package func writeExactJSON(into text: inout String) {
            switch self {
            case .null: text += "null"
            case .bool(let flag): text += flag ? "true" : "false"
            case .int(let number): text += String(number)
            // Swift's shortest round-trip form always has a "." or an "e" for a finite double.
            case .double(let number): text += number.isFinite ? "\(number)" : "null"
            case .string(let string): TweakValue.writeJSONString(string, into: &text)
            case .array(let items):
                text += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { text += "," }
                    item.writeExactJSON(into: &text)
                }
                text += "]"
            case .object(let fields):
                text += "{"
                for (index, key) in fields.keys.sorted().enumerated() {
                    if index > 0 { text += "," }
                    TweakValue.writeJSONString(key, into: &text)
                    text += ":"
                    fields[key]!.writeExactJSON(into: &text)
                }
                text += "}"
            }
        }
    }
}

extension TweakContext.Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` is ``null``.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: TweakContext.Value...) { self = .array(elements) }
    /// A dictionary literal (a later duplicate key wins).
    public init(dictionaryLiteral fields: (String, TweakContext.Value)...) {
        self = .object(Dictionary(fields, uniquingKeysWith: { _, later in later }))
    }
}
