import Locking

/// A provider whose answers come from closures — how the Lua runtime plugs in providers written in Lua.
///
/// The closures are called without any lock held, so they may call back into the manager. Return nil
/// for "this provider does not have it" and throw for "this provider failed": the manager reports the two
/// differently.
public final class ClosureTweakProvider: TweakProvider {
    /// Answers one tweak with a whole ``Tweak`` (title, group, `isEncrypted`...), or nil.
    public typealias TweakGetter = @Sendable (_ feature: String, _ variable: String) throws -> Tweak?
    /// Answers one tweak with just its value, or nil.
    public typealias ValueGetter = @Sendable (_ feature: String, _ variable: String) throws -> TweakValue?
    /// Lists every tweak the provider knows.
    public typealias Lister = @Sendable () throws -> [Tweak]

    /// The provider's name.
    public let name: String
    private let getter: TweakGetter
    private let lister: Lister?
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
        self.init(name: name, decryptor: decryptor, list: list, getter: { feature, variable in
            try get(feature, variable).map { Tweak(feature: feature, variable: variable, value: $0, source: name) }
        })
    }

    /// Creates a provider answering with whole tweaks (title, group, `isEncrypted`...).
    ///
    /// A factory rather than an initializer so that a trailing closure is never ambiguous between the two.
    public static func withTweaks(
        name: String, decryptor: TweakDecryptor? = nil, list: Lister? = nil, tweak: @escaping TweakGetter
    ) -> ClosureTweakProvider {
        ClosureTweakProvider(name: name, decryptor: decryptor, list: list, getter: tweak)
    }

    private init(name: String, decryptor: TweakDecryptor?, list: Lister?, getter: @escaping TweakGetter) {
        self.name = name
        self.getter = getter
        self.lister = list
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

    /// Calls the getter; the feature and variable of the answer are forced to the ones asked for.
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        guard var tweak = try getter(feature, variable) else { return nil }
        tweak.feature = feature
        tweak.variable = variable
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
