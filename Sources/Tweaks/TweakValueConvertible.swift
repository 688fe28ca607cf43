/// A Swift type a tweak can be read as: `Bool`, `Int`, `Double`, `String` or `JSONValue` itself.
///
/// Conversions are strict (see `JSONValue`): `Int` never accepts a Boolean or a double, `Bool`
/// never accepts a number; only `Double` accepts an integer, widened.
public protocol TweakValueConvertible: Sendable {
    /// The value if `tweakValue` holds this type, else nil.
    init?(tweakValue: JSONValue)
    /// This value as a tweak value.
    var tweakValue: JSONValue { get }
    /// The type's name in messages: "bool", "int", "double", "string" or "any".
    static var tweakTypeName: String { get }
}

extension Bool: TweakValueConvertible {
    /// Only a `.bool`.
    public init?(tweakValue: JSONValue) {
        guard let value = tweakValue.boolValue else { return nil }
        self = value
    }
    /// A `.bool`.
    public var tweakValue: JSONValue { .bool(self) }
    /// "bool".
    public static var tweakTypeName: String { "bool" }
}

extension Int: TweakValueConvertible {
    /// Only an `.int`.
    public init?(tweakValue: JSONValue) {
        guard let value = tweakValue.intValue else { return nil }
        self = value
    }
    /// An `.int`.
    public var tweakValue: JSONValue { .int(self) }
    /// "int".
    public static var tweakTypeName: String { "int" }
}

extension Double: TweakValueConvertible {
    /// A `.double`, or an `.int` widened.
    public init?(tweakValue: JSONValue) {
        guard let value = tweakValue.doubleValue else { return nil }
        self = value
    }
    /// A `.double`.
    public var tweakValue: JSONValue { .double(self) }
    /// "double".
    public static var tweakTypeName: String { "double" }
}

extension String: TweakValueConvertible {
    /// Only a `.string`.
    public init?(tweakValue: JSONValue) {
        guard let value = tweakValue.stringValue else { return nil }
        self = value
    }
    /// A `.string`.
    public var tweakValue: JSONValue { .string(self) }
    /// "string".
    public static var tweakTypeName: String { "string" }
}

extension JSONValue: TweakValueConvertible {
    /// Any value.
    public init?(tweakValue: JSONValue) { self = tweakValue }
    /// Itself.
    public var tweakValue: JSONValue { self }
    /// "any".
    public static var tweakTypeName: String { "any" }
}
