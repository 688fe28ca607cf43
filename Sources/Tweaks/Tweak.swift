/// One feature flag as a provider holds it: its value and the metadata of JustTweak's JSON.
///
/// A value type whose fields live in one shared box until a copy changes one (copy on write): a
/// lookup passes a tweak from its provider through the manager to the caller, and each of those copies
/// costs one retain, not one per field.
public struct Tweak: Sendable, Hashable {
    /// The fields, shared by copies until one of them writes.
    private var storage: Storage

    /// The feature it belongs to.
    public var feature: String {
        get { storage.fields.feature }
        set { writable.fields.feature = newValue }
    }
    /// The variable within the feature.
    public var variable: String {
        get { storage.fields.variable }
        set { writable.fields.variable = newValue }
    }
    /// The value; ciphertext while ``isEncrypted`` is true.
    public var value: JSONValue {
        get { storage.fields.value }
        set { writable.fields.value = newValue }
    }
    /// A human-readable title (`"Title"`).
    public var title: String? {
        get { storage.fields.title }
        set { writable.fields.title = newValue }
    }
    /// A longer explanation (`"Description"`).
    public var description: String? {
        get { storage.fields.description }
        set { writable.fields.description = newValue }
    }
    /// A group for display (`"Group"`).
    public var group: String? {
        get { storage.fields.group }
        set { writable.fields.group = newValue }
    }
    /// The name of the provider that supplied it; ``TweakManager`` sets it, so it is always the provider's name.
    public var source: String {
        get { storage.fields.source }
        set { writable.fields.source = newValue }
    }
    /// True while ``value`` is still encrypted (`"Encrypted": true`); the manager decrypts before returning it.
    /// Setting it sets ``isSealed`` to the same: a value stored in the clear is no secret.
    public var isEncrypted: Bool {
        get { storage.fields.isEncrypted }
        set {
            let box = writable
            box.fields.isEncrypted = newValue
            box.fields.isSealed = newValue
        }
    }
    /// True when the provider holds the value sealed, whether or not it has been decrypted since: a
    /// secret, which displays should mask until asked to reveal it.
    public var isSealed: Bool {
        get { storage.fields.isSealed }
        set { writable.fields.isSealed = newValue }
    }
    /// The property name for generated accessors (`"GeneratedPropertyName"`).
    package var generatedPropertyName: String? {
        get { storage.fields.generatedPropertyName }
        set { writable.fields.generatedPropertyName = newValue }
    }
    /// The name of the value among the flag's variants, when its provider names them (a flagd flag).
    public var variant: String? {
        get { storage.fields.variant }
        set { writable.fields.variant = newValue }
    }
    /// Why this value (``TweakReason/static`` for a provider without targeting).
    public var reason: TweakReason {
        get { storage.fields.reason }
        set { writable.fields.reason = newValue }
    }
    /// The flag's metadata, as its provider has it (a flagd flag's, over its flag set's).
    public var metadata: [String: JSONValue] {
        get { storage.fields.metadata }
        set { writable.fields.metadata = newValue }
    }
    /// Whether another evaluation context could have had another value: a flag with targeting. A
    /// lookup whose answer depends on the context is never cached.
    package var dependsOnContext: Bool {
        get { storage.fields.dependsOnContext }
        set { writable.fields.dependsOnContext = newValue }
    }

    /// Creates a tweak.
    public init(
        feature: String, variable: String, value: JSONValue, title: String? = nil, description: String? = nil,
        group: String? = nil, source: String = "", isEncrypted: Bool = false, generatedPropertyName: String? = nil,
        variant: String? = nil, reason: TweakReason = .static, metadata: [String: JSONValue] = [:],
        dependsOnContext: Bool = false
    ) {
        storage = Storage(Fields(
            feature: feature, variable: variable, value: value, title: title, description: description, group: group,
            source: source, isEncrypted: isEncrypted, isSealed: isEncrypted, generatedPropertyName: generatedPropertyName,
            variant: variant, reason: reason, metadata: metadata, dependsOnContext: dependsOnContext))
    }

    /// The feature and variable together.
    public var key: TweakKey { TweakKey(feature: feature, variable: variable) }

    /// Two tweaks are equal when all their fields are.
    public static func == (lhs: Tweak, rhs: Tweak) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes all the fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// The box, copied first when another tweak shares it.
    private var writable: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            return storage
        }
    }

    /// The fields of a tweak.
    private struct Fields: Hashable {
        var feature: String
        var variable: String
        var value: JSONValue
        var title: String?
        var description: String?
        var group: String?
        var source: String
        var isEncrypted: Bool
        var isSealed: Bool
        var generatedPropertyName: String?
        var variant: String?
        var reason: TweakReason
        var metadata: [String: JSONValue]
        var dependsOnContext: Bool
    }

    /// The box of the fields. Written only through ``writable``, when no other tweak holds it: a box
    /// that is shared is never changed, which is what makes it safe to share between threads.
    private final class Storage: @unchecked Sendable {
        var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}

extension Tweak: CustomReflectable {
    /// The fields, as `print`, `dump` and test failures show a tweak (not its box).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "feature": feature, "variable": variable, "value": value, "title": title as Any,
                "description": description as Any, "group": group as Any, "source": source, "isEncrypted": isEncrypted,
                "isSealed": isSealed, "generatedPropertyName": generatedPropertyName as Any, "variant": variant as Any,
                "reason": reason, "metadata": metadata, "dependsOnContext": dependsOnContext,
            ],
            displayStyle: .struct)
    }
}
