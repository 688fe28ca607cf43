import Preferences

/// What changed in one provider: some tweaks, or possibly all of them.
public struct TweakProviderChange: Sendable {
    /// The provider's name.
    public let provider: String
    /// The tweaks that changed; nil when anything may have changed (a reload, a refresh).
    public let keys: [TweakKey]?

    /// Creates a change record.
    package init(provider: String, keys: [TweakKey]?) {
        self.provider = provider
        self.keys = keys
    }
}

/// The observer list a provider uses to report its changes (see ``TweakProvider/observeChanges(_:)``).
///
/// Handlers are called outside the broadcaster's lock, so they may call back into the provider or the
/// manager. A provider must not hold its own lock while calling ``send(_:)`` for the same reason.
package final class TweakChangeBroadcaster: Sendable {
    private let handlers = ObserverList<TweakProviderChange>()

    /// Creates an empty broadcaster.
    package init() {}

    /// Registers `handler`; the returned observation unregisters it.
    package func observe(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation {
        handlers.add(handler)
    }

    /// Calls every registered handler with `change`.
    package func send(_ change: TweakProviderChange) {
        handlers.notify(change)
    }
}
