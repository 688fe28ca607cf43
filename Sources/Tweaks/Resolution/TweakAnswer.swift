/// A provider's answer for a flag in an evaluation context
/// (``TweakProvider/evaluate(feature:variable:context:)``).
public enum TweakAnswer: Sendable {
    /// The flag's value, with its variant, reason and metadata in the tweak.
    case value(Tweak)
    /// The provider has the flag but gives no value for it: the caller's default applies, for `reason`
    /// (``TweakReason/disabled``, or ``TweakReason/default`` for a flag without a default variant), or
    /// with an error code (a targeting rule that cannot be evaluated: ``TweakErrorCode/parseError``).
    /// Lower providers of the stack are not asked: the flag is this provider's.
    /// (Kept in a box of its own, so that an answer is the size of a tweak, one reference, whichever
    /// case it is: answers are passed along at every step of a lookup.)
    indirect case callerDefault(TweakDefaultAnswer)
}

/// A provider's answer that leaves the value to the caller's default (``TweakAnswer/callerDefault(_:)``).
public struct TweakDefaultAnswer: Sendable, Hashable {
    /// The flag's feature.
    public var feature: String
    /// The flag's variable.
    public var variable: String
    /// Why the default applies.
    public var reason: TweakReason
    /// The failure, when one is the cause.
    public var errorCode: TweakErrorCode?
    /// The failure in words.
    package var errorMessage: String?
    /// The flag's metadata (its flag set's, with its own winning).
    public var metadata: [String: JSONValue]
    /// Whether another context could have had another answer (a flag with targeting).
    package var dependsOnContext: Bool

    /// An answer of these parts.
    package init(
        feature: String, variable: String, reason: TweakReason, errorCode: TweakErrorCode? = nil,
        errorMessage: String? = nil, metadata: [String: JSONValue] = [:], dependsOnContext: Bool = false
    ) {
        self.feature = feature
        self.variable = variable
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.metadata = metadata
        self.dependsOnContext = dependsOnContext
    }
}
