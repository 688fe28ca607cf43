/// What a lookup answered, as OpenFeature's resolution details have it: the value, and how it was
/// chosen — the variant, the reason, an error code when the caller's default stands in, the flag's
/// metadata and the provider of the stack that answered.
///
/// The non-throwing reads (``TweakManager/resolve(_:_:default:context:)``) never fail: when the flag
/// cannot be read as asked, the value is the caller's default and ``errorCode`` says why.
public struct TweakResolution<Value: Sendable>: Sendable {
    /// The value: the flag's, or the caller's default when ``errorCode`` is set or the flag gave none
    /// (``TweakReason/disabled``, a flag without a default variant).
    public var value: Value
    /// The name of the value among the flag's variants, when its provider names them.
    public var variant: String?
    /// Why this value.
    public var reason: TweakReason
    /// Why the caller's default stands in; nil when the flag answered.
    public var errorCode: TweakErrorCode?
    /// The failure in words, with ``errorCode``.
    package var errorMessage: String?
    /// The flag's metadata: its flag set's, with the flag's own winning.
    public var metadata: [String: JSONValue]
    /// The provider of the stack that answered; nil when none did.
    public var source: String?

    /// A resolution of these parts.
    package init(
        value: Value, variant: String? = nil, reason: TweakReason, errorCode: TweakErrorCode? = nil,
        errorMessage: String? = nil, metadata: [String: JSONValue] = [:], source: String? = nil
    ) {
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.metadata = metadata
        self.source = source
    }
}
