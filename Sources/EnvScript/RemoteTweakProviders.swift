#if RemoteFlags
import Foundation
import Logging
import RemoteTweaks
import Tweaks
import Locking

/// The remote tweak providers a host's scripts declared (`tweak.remote`, `tweak.ofrep`), and their life in the background: each
/// fetches off the host's lock from the moment it is declared (then every `refresh` seconds), adopts
/// the kept copy of the container live after each switch and fetches again, and stops when the host
/// closes.
///
/// Providers are held weakly: one that no script, stack or Swift caller holds any more goes away,
/// and with it its refreshing.
final class RemoteTweakProviders: Sendable {
    private struct State {
        var providers: [WeakProvider] = []
        var isClosed = false
    }

    private struct WeakProvider {
        weak var provider: (any RemoteRefreshingProvider)?
    }

    private let state = Locked(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The providers still alive, in the order they were declared.
    var all: [any RemoteRefreshingProvider] {
        state.withLock { state in
            state.providers.removeAll { $0.provider == nil }
            return state.providers.compactMap(\.provider)
        }
    }

    /// Takes `provider` in and starts its refreshing in the background; after ``close()`` it is closed
    /// at once instead.
    func adopt(_ provider: any RemoteRefreshingProvider) {
        let closed = state.withLock { state -> Bool in
            if state.isClosed { return true }
            state.providers.removeAll { $0.provider == nil }
            state.providers.append(WeakProvider(provider: provider))
            return false
        }
        if closed {
            provider.close()
        } else {
            provider.startRefreshing()
        }
    }

    /// After a switch (or a clean of the live container): each provider answers from the kept copy of
    /// the container now live, then fetches as it did before.
    func containerDidSwitch() {
        for provider in all {
            do {
                try provider.reloadKeptCopy()
            } catch {
                logger.error("remote tweaks '\(provider.name)': the kept copy of the new container is unusable: \(error)")
            }
            provider.startRefreshing()
        }
    }

    /// Waits until every provider's fetch since it was declared (or since the last switch) has ended;
    /// false when one did not within `timeout` (measured once, for all).
    func waitUntilFetched(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        for provider in all {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard await provider.waitUntilFetched(timeout: max(remaining, .zero)) else { return false }
        }
        return true
    }

    /// ``waitUntilFetched(timeout:)`` blocking the calling thread.
    func waitUntilFetchedBlocking(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        for provider in all {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard provider.waitUntilFetchedBlocking(timeout: max(remaining, .zero)) else { return false }
        }
        return true
    }

    /// Closes every provider (see ``RemoteTweakProvider/close()``) and every one adopted later.
    func close() {
        let providers = state.withLock { state -> [any RemoteRefreshingProvider] in
            state.isClosed = true
            defer { state.providers = [] }
            return state.providers.compactMap(\.provider)
        }
        for provider in providers { provider.close() }
    }
}
#endif
