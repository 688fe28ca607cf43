/// Turns an encrypted tweak (``Tweak/isEncrypted``, ciphertext in ``Tweak/value``) into its plain value.
public typealias TweakDecryptor = @Sendable (Tweak) throws -> JSONValue

/// A source of tweaks in a ``TweakManager``'s stack.
///
/// The contract that lets the manager report why a provider passed: return nil when the provider does
/// not have the tweak, and throw when it could not tell (a file it cannot parse, a server it cannot
/// reach). Implementations must be thread-safe and must not hold a lock while calling out (decryptors,
/// change handlers), because those may call back into the manager.
public protocol TweakProvider: Sendable {
    /// The provider's name in lookups, errors and ``Tweak/source``; unique within a stack.
    var name: String { get }

    /// The tweak, or nil when this provider does not have it; encrypted values are returned as stored.
    ///
    /// - Throws: when the provider cannot answer; the manager records it and asks the next provider.
    func tweak(feature: String, variable: String) throws -> Tweak?

    /// The flag evaluated for `context` (already merged: the manager's, the task's, the lookup's), or
    /// nil when this provider does not have it. By default, ``tweak(feature:variable:)``'s answer: a
    /// provider without targeting need not implement it.
    ///
    /// - Throws: when the provider cannot answer; the manager records it and asks the next provider.
    func evaluate(feature: String, variable: String, context: TweakContext) throws -> TweakAnswer?

    /// Whether this provider's "not here" (a nil answer) may differ from one context to another — a Lua
    /// provider whose `get` reads the context. A lookup that passed such a provider is never cached.
    /// False by default.
    var missesDependOnContext: Bool { get }

    /// Every tweak this provider has, encrypted values as stored.
    func allTweaks() throws -> [Tweak]

    /// The key of every flag this provider has, those whose lookups leave the value to the caller's
    /// default included (a flagd flag without a default variant, which ``allTweaks()`` cannot list but
    /// whose targeting may still choose a variant in some context). By default, the keys of
    /// ``allTweaks()``.
    func allKeys() throws -> [TweakKey]

    /// The provider's own decryptor; it wins over the manager's. Nil by default.
    var decryptor: TweakDecryptor? { get }

    /// Registers `handler` to hear of this provider's changes, or returns nil when the provider never
    /// reports changes (the default). The manager then treats its own writes as the only changes.
    func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation?
}

extension TweakProvider {
    /// ``tweak(feature:variable:)``'s answer, whatever the context.
    public func evaluate(feature: String, variable: String, context: TweakContext) throws -> TweakAnswer? {
        try tweak(feature: feature, variable: variable).map { .value($0) }
    }

    /// A provider's misses are the same for every context, by default.
    public var missesDependOnContext: Bool { false }

    /// The keys of ``allTweaks()``.
    public func allKeys() throws -> [TweakKey] { try allTweaks().map(\.key) }

    /// No decryptor of its own: the manager's applies.
    public var decryptor: TweakDecryptor? { nil }

    /// Reports no changes.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        nil
    }
}

/// A provider that can be written to, such as the overrides of the active container.
public protocol MutableTweakProvider: TweakProvider {
    /// Stores `value` for the feature and variable.
    func set(_ value: JSONValue, feature: String, variable: String) throws
    /// Removes the stored value; removing an absent one does nothing.
    func delete(feature: String, variable: String) throws
}
