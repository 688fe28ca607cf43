/// A property backed by a tweak, with a required fallback: it never crashes (JustTweak's did when the
/// tweak was missing) and reads the fallback when the tweak is missing, of another type, or unreadable.
///
/// ```swift
/// @TweakProperty(feature: "checkout", variable: "max_items", fallback: 10, manager: tweaks)
/// var maxItems: Int
/// ```
///
/// The projection (`$maxItems`) is a ``TweakBinding`` for reads and writes that report errors.
@propertyWrapper
public struct TweakProperty<Value: TweakValueConvertible>: Sendable {
    /// The feature.
    package let feature: String
    /// The variable.
    package let variable: String
    /// The value read when the tweak cannot be.
    package let fallback: Value
    /// The manager asked.
    package let manager: TweakManager

    /// Creates the property.
    public init(feature: String, variable: String, fallback: Value, manager: TweakManager) {
        self.feature = feature
        self.variable = variable
        self.fallback = fallback
        self.manager = manager
    }

    /// Creates the property with JustTweak's argument labels.
    public init(fallbackValue: Value, feature: String, variable: String, tweakManager: TweakManager) {
        self.init(feature: feature, variable: variable, fallback: fallbackValue, manager: tweakManager)
    }

    /// The tweak's value, or the fallback it was declared with.
    public var wrappedValue: Value {
        manager.value(feature, variable, default: fallback)
    }

    /// The tweak as a ``TweakBinding``, for detailed lookups and writes.
    public var projectedValue: TweakBinding<Value> {
        TweakBinding(feature: feature, variable: variable, manager: manager)
    }
}
