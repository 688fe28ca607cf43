import Locking

/// A mutable provider held in memory only — for tests, scenarios and values set for one run.
public final class EphemeralTweakProvider: MutableTweakProvider {
    /// The provider's name (default "ephemeral").
    public let name: String
    private let tweaks: Locked<[TweakKey: Tweak]>
    private let ownDecryptor: Locked<TweakDecryptor?>
    private let changes = TweakChangeBroadcaster()

    /// Creates a provider holding `values`, keyed feature → variable → value.
    public convenience init(name: String = "ephemeral", values: [String: [String: JSONValue]] = [:]) {
        var tweaks: [Tweak] = []
        for (feature, variables) in values {
            for (variable, value) in variables {
                tweaks.append(Tweak(feature: feature, variable: variable, value: value, source: name))
            }
        }
        self.init(name: name, tweaks: tweaks)
    }

    /// Creates a provider holding whole tweaks (with titles, groups, encrypted values...).
    public init(name: String = "ephemeral", tweaks: [Tweak], decryptor: TweakDecryptor? = nil) {
        self.name = name
        self.tweaks = Locked(Dictionary(tweaks.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last }))
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

    /// The tweak, or nil.
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        tweaks.withLock { $0[TweakKey(feature: feature, variable: variable)] }
    }

    /// All tweaks.
    public func allTweaks() throws -> [Tweak] {
        tweaks.withLock { Array($0.values) }
    }

    /// Stores a plain (not encrypted) value, keeping the existing tweak's metadata.
    public func set(_ value: JSONValue, feature: String, variable: String) throws {
        let key = TweakKey(feature: feature, variable: variable)
        tweaks.withLock { tweaks in
            var tweak = tweaks[key] ?? Tweak(feature: feature, variable: variable, value: value, source: name)
            tweak.value = value
            tweak.isEncrypted = false
            tweaks[key] = tweak
        }
        changes.send(TweakProviderChange(provider: name, keys: [key]))
    }

    /// Stores a whole tweak (for example an encrypted one).
    public func set(_ tweak: Tweak) {
        tweaks.withLock { $0[tweak.key] = tweak }
        changes.send(TweakProviderChange(provider: name, keys: [tweak.key]))
    }

    /// Removes the tweak.
    public func delete(feature: String, variable: String) throws {
        let key = TweakKey(feature: feature, variable: variable)
        let removed = tweaks.withLock { $0.removeValue(forKey: key) }
        if removed != nil { changes.send(TweakProviderChange(provider: name, keys: [key])) }
    }

    /// Reports every change made to this provider.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        changes.observe(handler)
    }
}
