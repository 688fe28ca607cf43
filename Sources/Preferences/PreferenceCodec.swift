/// How the values of one `Codable` type become ``PreferenceValue``s and back, chosen once for the type:
/// directly for ``PreferenceValueConvertible`` types, through Foundation's property-list coders (see
/// ``PreferenceValue/init(encoding:)``) for the others. Both ways store the same value.
///
/// Make one when the type is known and keep it — a stored state does, per key — so that no write
/// or read has to find out again which way its type takes.
package struct PreferenceCodec<Value: Codable & Sendable>: Sendable {
    private let encodeValue: @Sendable (Value) throws -> PreferenceValue
    private let decodeValue: @Sendable (PreferenceValue) throws -> Value

    /// The codec of `Value`.
    package init() {
        if let convertible = Value.self as? any PreferenceValueConvertible.Type {
            (encodeValue, decodeValue) = convertible.directConversions(as: Value.self)
        } else {
            encodeValue = { value in try PreferenceValue(encoding: value) }
            decodeValue = { stored in try stored.decode(Value.self) }
        }
    }

    /// The preference value of `value`.
    ///
    /// - Throws: the property-list encoder's error when `value` has no property-list form.
    package func encode(_ value: Value) throws -> PreferenceValue {
        try encodeValue(value)
    }

    /// The value `stored` holds.
    ///
    /// - Throws: the property-list decoder's `DecodingError` when the stored shape does not match `Value`.
    package func decode(_ stored: PreferenceValue) throws -> Value {
        try decodeValue(stored)
    }
}

extension PreferenceValueConvertible {
    /// The direct conversions of `Self`, typed as `Value` (which is `Self`): what the property-list
    /// decoder reads is asked of it only when the direct reading does not recognise a value.
    fileprivate static func directConversions<Value: Codable & Sendable>(
        as type: Value.Type
    ) -> (encode: @Sendable (Value) -> PreferenceValue, decode: @Sendable (PreferenceValue) throws -> Value) {
        (
            encode: { value in (value as! Self).preferenceValue },
            decode: { stored in
                if let value = Self(preferenceValue: stored) { return value as! Value }
                return try stored.decode(Value.self)
            }
        )
    }
}
