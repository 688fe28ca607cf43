public import Preferences

/// What changed in one provider: some tweaks, or possibly all of them.
public struct TweakProviderChange: Sendable {
    /// The provider's name.
    public let provider: String
    /// The tweaks that changed; nil when anything may have changed (a reload, a refresh).
    public let keys: [TweakKey]?

    /// Creates a change record.
    public init(provider: String, keys: [TweakKey]?) {
        self.provider = provider
        self.keys = keys
    }
}

/// The observer list a provider uses to report its changes (see ``TweakProvider/observeChanges(_:)``).
///
/// Handlers are called outside the broadcaster's lock, so they may call back into the provider or the
/// manager. A provider must not hold its own lock while calling ``send(_:)`` for the same reason.
public final class TweakChangeBroadcaster: Sendable {
    private let handlers = ObserverList<TweakProviderChange>()

    /// Creates an empty broadcaster.
    public init() {}

    /// Registers `handler`; the returned observation unregisters it.
    public func observe(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation {
        handlers.add(handler)
    }

    /// Calls every registered handler with `change`.
    public func send(_ change: TweakProviderChange) {
        handlers.notify(change)
    }
}
