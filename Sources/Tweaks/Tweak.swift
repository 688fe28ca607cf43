/// One feature flag as a provider holds it: its value and the metadata of JustTweak's JSON.
public struct Tweak: Sendable, Hashable {
    /// The feature it belongs to.
    public var feature: String
    /// The variable within the feature.
    public var variable: String
    /// The value; ciphertext while ``isEncrypted`` is true.
    public var value: TweakValue
    /// A human-readable title (`"Title"`).
    public var title: String?
    /// A longer explanation (`"Description"`).
    public var description: String?
    /// A group for display (`"Group"`).
    public var group: String?
    /// The name of the provider that supplied it; ``TweakManager`` sets it, so it is always the provider's name.
    public var source: String
    /// True while ``value`` is still encrypted (`"Encrypted": true`); the manager decrypts before returning it.
    /// Setting it sets ``isSealed`` to the same: a value stored in the clear is no secret.
    public var isEncrypted: Bool {
        didSet { isSealed = isEncrypted }
    }
    /// True when the provider holds the value sealed, whether or not it has been decrypted since: a
    /// secret, which displays should mask until asked to reveal it.
    public var isSealed: Bool
    /// The property name for generated accessors (`"GeneratedPropertyName"`).
    public var generatedPropertyName: String?
    /// The name of the value among the flag's variants, when its provider names them (a flagd flag).
    public var variant: String?
    /// Why this value (``TweakReason/static`` for a provider without targeting).
    public var reason: TweakReason
    /// The flag's metadata, as its provider has it (a flagd flag's, over its flag set's).
    public var metadata: [String: TweakValue]
    /// Whether another evaluation context could have had another value: a flag with targeting. A
    /// lookup whose answer depends on the context is never cached.
    public var dependsOnContext: Bool

    /// Creates a tweak.
    public init(
        feature: String, variable: String, value: TweakValue, title: String? = nil, description: String? = nil,
        group: String? = nil, source: String = "", isEncrypted: Bool = false, generatedPropertyName: String? = nil,
        variant: String? = nil, reason: TweakReason = .static, metadata: [String: TweakValue] = [:],
        dependsOnContext: Bool = false
    ) {
        self.feature = feature
        self.variable = variable
        self.value = value
        self.title = title
        self.description = description
        self.group = group
        self.source = source
        self.isEncrypted = isEncrypted
        self.isSealed = isEncrypted
        self.generatedPropertyName = generatedPropertyName
        self.variant = variant
        self.reason = reason
        self.metadata = metadata
        self.dependsOnContext = dependsOnContext
    }

    /// The feature and variable together.
    public var key: TweakKey { TweakKey(feature: feature, variable: variable) }
}
