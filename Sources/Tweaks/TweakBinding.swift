/// One tweak of one manager, typed: the `$` projection of the tweak property wrappers, for the reads and
/// writes that can fail and should say why.
public struct TweakBinding<Value: TweakValueConvertible>: Sendable {
    /// The feature.
    package let feature: String
    /// The variable.
    package let variable: String
    /// The manager asked.
    package let manager: TweakManager

    /// Creates a binding.
    package init(feature: String, variable: String, manager: TweakManager) {
        self.feature = feature
        self.variable = variable
        self.manager = manager
    }

    /// The detailed lookup (see ``TweakManager/lookup(feature:variable:context:)``).
    public func lookup() throws -> TweakLookup {
        try manager.lookup(feature: feature, variable: variable)
    }

    /// The value, strictly typed (see `TweakManager.value(_:_:as:)`).
    public func value() throws -> Value {
        try manager.value(feature, variable, as: Value.self)
    }

    /// Stores a value in the highest mutable provider (or the one named `provider`).
    public func set(_ value: Value, provider: String? = nil) throws {
        try manager.set(value.tweakValue, feature: feature, variable: variable, provider: provider)
    }

    /// Removes the value from the highest mutable provider (or the one named `provider`).
    public func delete(provider: String? = nil) throws {
        try manager.delete(feature: feature, variable: variable, provider: provider)
    }
}
