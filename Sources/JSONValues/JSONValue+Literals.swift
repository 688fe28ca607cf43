// Not `ExpressibleByNilLiteral`: `nil` where a `JSONValue?` is expected must stay `Optional.none`, never
// quietly become `.null`; write `.null`.
extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates a `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an `.int`.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an `.array`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Creates an `.object`; a name given twice keeps its last value.
    public init(dictionaryLiteral fields: (String, JSONValue)...) {
        self = .object(Dictionary(fields, uniquingKeysWith: { _, last in last }))
    }
}
