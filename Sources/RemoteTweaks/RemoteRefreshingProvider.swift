package import Tweaks

/// A provider fetching in the background that a host adopts: it starts it, reloads its kept copy after
/// switches, waits for its first fetch and closes it.
package protocol RemoteRefreshingProvider: TweakProvider, AnyObject {
    /// Fetches now and then periodically, in the background.
    func startRefreshing()
    /// Re-reads the kept copy of the container now live.
    func reloadKeptCopy() throws
    /// Waits until a fetch has ended.
    func waitUntilFetched(timeout: Duration) async -> Bool
    /// Waits until a fetch has ended, blocking the calling thread.
    func waitUntilFetchedBlocking(timeout: Duration) -> Bool
    /// Stops for good.
    func close()
    /// What the provider knows about its data and its last attempts.
    var status: RemoteTweakProvider.Status { get }
    /// Where and how it fetches (its ``RemoteTweakProvider/Configuration/timeout`` bounds a wait for it).
    var configuration: RemoteTweakProvider.Configuration { get }
}

extension RemoteTweakProvider: RemoteRefreshingProvider {}
