import Foundation
import Locking
public import Preferences
import Synchronization
public import Tweaks

/// A read-only provider whose tweaks — a document in JustTweak's JSON format — are fetched over HTTP.
///
/// - Conditional requests: the server's `ETag` is sent back as `If-None-Match`; a `304 Not Modified`
///   keeps the current tweaks without re-parsing.
/// - Offline start: each good document is kept, atomically, in ``FetchingTweakProvider/Configuration/keptCopy`` (by default
///   in the container's `Library/Caches`), and loaded when the provider is created, so lookups work
///   before the first fetch and without a network.
/// - Failures never crash and never replace good data: an HTTP error, a timeout or a malformed body is
///   recorded in ``FetchingTweakProvider/status`` and thrown by ``FetchingTweakProvider/refresh()``; lookups keep answering from the last good copy.
///   With no copy at all, lookups throw the failure, so the manager reports it in its lookup details.
/// - Lookups never wait for the network. Call ``FetchingTweakProvider/refresh()`` (or ``FetchingTweakProvider/refreshNow()`` from synchronous code),
///   or ``FetchingTweakProvider/startRefreshing()`` to fetch in the background now and every ``FetchingTweakProvider/Configuration/refreshInterval``;
///   ``FetchingTweakProvider/waitUntilFetched(timeout:)`` waits for the first answer.
/// - Switches: `reloadKeptCopy()` adopts the kept copy of the container now live; an answer to a
///   fetch started before it is dropped (``FetchingTweakProvider/RefreshResult/superseded``), since its `If-None-Match` named
///   the previous copy and its body would land in the new container.
/// - A `429 Too Many Requests` with `Retry-After` (seconds or an HTTP date): no request goes out before
///   it has passed — the timer's ticks are skipped, ``FetchingTweakProvider/refresh()`` fails with the 429 at once.
/// - ``FetchingTweakProvider/close()`` ends it all: no fetch starts, none in flight is applied, the kept copy is not written.
///
/// Refreshing, its status and the kept copy are ``FetchingTweakProvider``'s, shared with
/// ``OFREPTweakProvider``.
public final class RemoteTweakProvider: FetchingTweakProvider, TweakProvider, @unchecked Sendable {
    /// The document, typed.
    private let remote: RemoteDocument<[TweakKey: Tweak]>
    private let ownDecryptor: Locked<TweakDecryptor?>

    /// Creates the provider and loads the kept copy if there is one. Nothing is fetched yet.
    public init(name: String = "remote", configuration: Configuration, decryptor: TweakDecryptor? = nil) {
        let remote = RemoteDocument<[TweakKey: Tweak]>(name: name, configuration: configuration) { body, file in
            Self.index(try TweakJSON.parse(body, file: file, source: name))
        }
        self.remote = remote
        self.ownDecryptor = Locked(decryptor)
        super.init(name: name, configuration: configuration, fetching: remote)
    }

    /// This provider's own decryptor, winning over the manager's; setting it reports a change.
    public var decryptor: TweakDecryptor? {
        get { ownDecryptor.withLock { $0 } }
        set {
            ownDecryptor.withLock { $0 = newValue }
            remote.changes.send(TweakProviderChange(provider: name, keys: nil))
        }
    }

    // MARK: TweakProvider

    /// The tweak from the current document, or nil.
    ///
    /// - Throws: when there is no document at all: the last fetch's error, or
    ///   `TweakError.Code.remoteNotLoaded`.
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        try remote.current()[TweakKey(feature: feature, variable: variable)]
    }

    /// All tweaks of the current document.
    public func allTweaks() throws -> [Tweak] {
        Array(try remote.current().values)
    }

    /// Reports refreshes that changed the tweaks, kept-copy reloads and decryptor changes.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        remote.changes.observe(handler)
    }

    private static func index(_ tweaks: [Tweak]) -> [TweakKey: Tweak] {
        Dictionary(tweaks.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }
}
