#if RemoteFlags
package import Foundation
package import RemoteTweaks

/// The remote providers of a host's scripts (`tweak.remote`, `tweak.ofrep`), with the `RemoteFlags` trait.
extension EnvScriptHost {
    /// The remote providers the scripts declared with `tweak.remote` that are still in use, in the order
    /// they were declared. Each fetches in the background, never under ``lock``; see
    /// ``waitUntilRemoteTweaksFetched(timeout:)``.
    package var remoteTweakProviders: [RemoteTweakProvider] { remoteTweaks.all.compactMap { $0 as? RemoteTweakProvider } }
    /// The OFREP providers the scripts declared with `tweak.ofrep` that are still in use, in the order
    /// they were declared; they fetch in the background like ``remoteTweakProviders``.
    package var ofrepTweakProviders: [OFREPTweakProvider] { remoteTweaks.all.compactMap { $0 as? OFREPTweakProvider } }

    /// Waits until each remote provider (`tweak.remote`, `tweak.ofrep`) has ended its first fetch since it was declared
    /// or since the last switch — with tweaks or with an error, see `RemoteTweakProvider.status` — so
    /// that flags answer from the server rather than from the kept copy. Declaring a provider never
    /// waits for the network; call this where an answer from the server matters more than starting at
    /// once.
    ///
    /// - Returns: false when a fetch had not ended within `timeout`.
    public func waitUntilRemoteTweaksFetched(timeout: Duration) async -> Bool {
        await remoteTweaks.waitUntilFetched(timeout: timeout)
    }

    /// The longest timeout of the remote providers in use (`tweak.remote`, `tweak.ofrep`), in seconds:
    /// how long a wait for their first fetches may take; nil when there are none.
    package var longestRemoteTimeout: TimeInterval? {
        remoteTweaks.all.map(\.configuration.timeout).max()
    }

    /// ``waitUntilRemoteTweaksFetched(timeout:)`` for synchronous callers: blocks the calling thread,
    /// which must not hold ``lock``, nor be a thread of Swift's cooperative pool.
    public func waitUntilRemoteTweaksFetchedBlocking(timeout: Duration) -> Bool {
        remoteTweaks.waitUntilFetchedBlocking(timeout: timeout)
    }
}
#endif
