/// A property backed by a tweak that may be absent: it reads the tweak's value, or else the optional
/// fallback (nil by default) when the tweak is missing, of another type, or unreadable.
///
/// ```swift
/// @OptionalTweakProperty(fallbackValue: nil, feature: "general", variable: "answer", tweakManager: tweaks)
/// var answer: Int?
/// ```
@propertyWrapper
public struct OptionalTweakProperty<Value: TweakValueConvertible>: Sendable {
    /// The feature.
    package let feature: String
    /// The variable.
    package let variable: String
    /// The value read when the tweak cannot be.
    package let fallback: Value?
    /// The manager asked.
    package let manager: TweakManager

    /// Creates the property.
    public init(feature: String, variable: String, fallback: Value? = nil, manager: TweakManager) {
        self.feature = feature
        self.variable = variable
        self.fallback = fallback
        self.manager = manager
    }

    /// Creates the property with JustTweak's argument labels.
    public init(fallbackValue: Value?, feature: String, variable: String, tweakManager: TweakManager) {
        self.init(feature: feature, variable: variable, fallback: fallbackValue, manager: tweakManager)
    }

    /// The tweak's value, or the fallback it was declared with.
    public var wrappedValue: Value? {
        (try? manager.value(feature, variable, as: Value.self)) ?? fallback
    }

    /// The tweak as a ``TweakBinding``, for detailed lookups and writes.
    public var projectedValue: TweakBinding<Value> {
        TweakBinding(feature: feature, variable: variable, manager: manager)
    }
}
