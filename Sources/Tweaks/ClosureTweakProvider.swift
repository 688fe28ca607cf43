import Locking

/// A provider whose answers come from closures — how the Lua runtime plugs in providers written in Lua.
///
/// The closures are called without any lock held, so they may call back into the manager. Return nil
/// for "this provider does not have it" and throw for "this provider failed": the manager reports the two
/// differently.
public final class ClosureTweakProvider: TweakProvider {
    /// Answers one tweak with a whole ``Tweak`` (title, group, `isEncrypted`...), or nil.
    package typealias TweakGetter = @Sendable (_ feature: String, _ variable: String) throws -> Tweak?
    /// Answers one tweak with just its value, or nil.
    public typealias ValueGetter = @Sendable (_ feature: String, _ variable: String) throws -> JSONValue?
    /// Answers one tweak in an evaluation context with a whole ``Tweak``, or nil.
    public typealias ContextualTweakGetter = @Sendable (_ feature: String, _ variable: String, _ context: TweakContext) throws -> Tweak?
    /// Lists every tweak the provider knows.
    public typealias Lister = @Sendable () throws -> [Tweak]

    /// The provider's name.
    public let name: String
    private let getter: ContextualTweakGetter
    private let lister: Lister?
    /// Whether the getter reads the context: then every answer, and every "not here", may differ by it.
    private let readsContext: Bool
    private let ownDecryptor: Locked<TweakDecryptor?>
    private let changes = TweakChangeBroadcaster()

    /// Creates a provider answering with values.
    ///
    /// - Parameters:
    ///   - name: the provider's name, which tweaks it answers name as their source.
    ///   - decryptor: decrypts the provider's encrypted values; without one, the manager's decryptor does.
    ///   - list: lists the provider's tweaks for ``TweakManager/list()``; without it, the provider
    ///     lists nothing.
    ///   - get: answers a feature and a variable with a value, or nil when the provider has none.
    public convenience init(
        name: String, decryptor: TweakDecryptor? = nil, list: Lister? = nil, get: @escaping ValueGetter
    ) {
        self.init(name: name, decryptor: decryptor, list: list, readsContext: false, getter: { feature, variable, _ in
            try get(feature, variable).map { Tweak(feature: feature, variable: variable, value: $0, source: name) }
        })
    }

    /// Creates a provider answering with whole tweaks (title, group, `isEncrypted`...).
    ///
    /// A factory rather than an initializer so that a trailing closure is never ambiguous between the two.
    package static func withTweaks(
        name: String, decryptor: TweakDecryptor? = nil, list: Lister? = nil, tweak: @escaping TweakGetter
    ) -> ClosureTweakProvider {
        ClosureTweakProvider(name: name, decryptor: decryptor, list: list, readsContext: false) { feature, variable, _ in
            try tweak(feature, variable)
        }
    }

    /// Creates a provider answering with whole tweaks chosen by the evaluation context — a provider with
    /// targeting rules of its own. Its answers and its "not here" are taken to depend on the context, so
    /// the manager never caches a lookup that reached it.
    public static func withContextualTweaks(
        name: String, decryptor: TweakDecryptor? = nil, list: Lister? = nil, tweak: @escaping ContextualTweakGetter
    ) -> ClosureTweakProvider {
        ClosureTweakProvider(name: name, decryptor: decryptor, list: list, readsContext: true, getter: tweak)
    }

    private init(name: String, decryptor: TweakDecryptor?, list: Lister?, readsContext: Bool, getter: @escaping ContextualTweakGetter) {
        self.name = name
        self.getter = getter
        self.lister = list
        self.readsContext = readsContext
        self.ownDecryptor = Locked(decryptor)
    }

    /// This provider's own decryptor, winning over the manager's; setting it reports a change.
    public var decryptor: TweakDecryptor? {
        get { ownDecryptor.withLock { $0 } }
        set {
            ownDecryptor.withLock { $0 = newValue }
            changes.send(TweakProviderChange(provider: name, keys: nil))
        }
    }

    /// Calls the getter in the empty context; the feature and variable of the answer are forced to the
    /// ones asked for.
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        try answer(feature: feature, variable: variable, context: .empty)
    }

    /// Calls the getter in `context`.
    public func evaluate(feature: String, variable: String, context: TweakContext) throws -> TweakAnswer? {
        try answer(feature: feature, variable: variable, context: context).map { .value($0) }
    }

    /// Whether the getter reads the context (``withContextualTweaks(name:decryptor:list:tweak:)``).
    public var missesDependOnContext: Bool { readsContext }

    private func answer(feature: String, variable: String, context: TweakContext) throws -> Tweak? {
        guard var tweak = try getter(feature, variable, context) else { return nil }
        tweak.feature = feature
        tweak.variable = variable
        tweak.dependsOnContext = tweak.dependsOnContext || readsContext
        return tweak
    }

    /// Calls the lister, or returns nothing without one.
    public func allTweaks() throws -> [Tweak] {
        try lister?() ?? []
    }

    /// Tells the manager that the closures' answers changed (nil: possibly all of them), so it drops its
    /// cache and notifies its observers.
    public func notifyChanged(keys: [TweakKey]? = nil) {
        changes.send(TweakProviderChange(provider: name, keys: keys))
    }

    /// Reports ``notifyChanged(keys:)`` and decryptor changes.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        changes.observe(handler)
    }
}
