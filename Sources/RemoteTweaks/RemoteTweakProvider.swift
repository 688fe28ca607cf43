public import Foundation
import Locking
public import Preferences
import Synchronization
public import Tweaks

/// A read-only provider whose tweaks — a document in JustTweak's JSON format — are fetched over HTTP.
///
/// - Conditional requests: the server's `ETag` is sent back as `If-None-Match`; a `304 Not Modified`
///   keeps the current tweaks without re-parsing.
/// - Offline start: each good document is kept, atomically, in ``Configuration/keptCopy`` (by default
///   in the container's `Library/Caches`), and loaded when the provider is created, so lookups work
///   before the first fetch and without a network.
/// - Failures never crash and never replace good data: an HTTP error, a timeout or a malformed body is
///   recorded in ``status`` and thrown by ``refresh()``; lookups keep answering from the last good copy.
///   With no copy at all, lookups throw the failure, so the manager reports it in its lookup details.
/// - Lookups never wait for the network. Call ``refresh()`` (or ``refreshNow()`` from synchronous code),
///   or ``startRefreshing()`` to fetch in the background now and every ``Configuration/refreshInterval``;
///   ``waitUntilFetched(timeout:)`` waits for the first answer.
/// - Switches: `reloadKeptCopy()` adopts the kept copy of the container now live; an answer to a
///   fetch started before it is dropped (``RefreshResult/superseded``), since its `If-None-Match` named
///   the previous copy and its body would land in the new container.
/// - A `429 Too Many Requests` with `Retry-After` (seconds or an HTTP date): no request goes out before
///   it has passed — the timer's ticks are skipped, ``refresh()`` fails with the 429 at once.
/// - ``close()`` ends it all: no fetch starts, none in flight is applied, the kept copy is not written.
///
/// The machinery (the internal `RemoteDocument`) is shared with ``OFREPTweakProvider``.
public final class RemoteTweakProvider: TweakProvider {
    /// Where and how to fetch.
    public struct Configuration: Sendable {
        /// The document's URL; for an ``OFREPTweakProvider``, the service's base URL.
        public var url: URL
        /// Seconds between refreshes once ``RemoteTweakProvider/startRefreshing()`` is called; nil fetches
        /// once per call of it.
        public var refreshInterval: TimeInterval?
        /// Seconds a request may take, in total, before it fails with `TweakError.Code.timedOut`.
        public var timeout: TimeInterval
        /// The file keeping the last good document; nil keeps nothing.
        public var keptCopy: URL?
        /// Extra request headers (authorization, say).
        public var headers: [String: String]
        /// Coordinates reads and writes of ``keptCopy`` with other processes and with switches of the
        /// home it lives in (a runtime passes the one of its stores); nil reads and writes it directly.
        package var coordinator: (any StoreCoordinator)?
        /// Whether a redirect to a URL may be followed (a refused one fails the fetch with the redirect's
        /// status); by default every redirect is followed. Scripts' permissions decide it for them.
        package var allowsRedirect: @Sendable (URL) -> Bool = { _ in true }
        /// The largest answer body accepted, in bytes (``defaultMaximumBodySize``): a larger one fails the
        /// fetch as it arrives, before more of it is kept, and the tweaks read before stay.
        package var maximumBodySize: Int = Configuration.defaultMaximumBodySize

        /// 16 MiB: a flag document is kilobytes; AsyncHTTPClient's own bound is 4 GiB.
        package static let defaultMaximumBodySize = 16 << 20

        /// Creates a configuration.
        public init(
            url: URL, refreshInterval: TimeInterval? = 300, timeout: TimeInterval = 10, keptCopy: URL? = nil,
            headers: [String: String] = [:]
        ) {
            self.url = url
            self.refreshInterval = refreshInterval
            self.timeout = timeout
            self.keptCopy = keptCopy
            self.headers = headers
        }
    }

    /// What the provider knows about its data and its last attempts.
    public struct Status: Sendable {
        /// The entity tag of the current document, sent as `If-None-Match`.
        public var etag: String?
        /// Whether there are tweaks to answer from (fetched or from the kept copy).
        package var hasTweaks = false
        /// Whether the current tweaks came from the kept copy rather than from a fetch in this run.
        package var isFromKeptCopy = false
        /// When the last fetch succeeded (200 or 304).
        package var lastSuccess: Date?
        /// When the last fetch was attempted.
        package var lastAttempt: Date?
        /// The error of the last fetch, nil after a success.
        package var lastError: (any Error)?
        /// The last failure to read or write the kept copy, nil after a success.
        package var keptCopyError: (any Error)?
    }

    /// The outcome of a successful refresh.
    public enum RefreshResult: Sendable, Hashable {
        /// A new document was fetched and differs from the previous tweaks.
        case updated
        /// A document was fetched (200) but holds the same tweaks.
        case unchanged
        /// The server answered 304: the current tweaks are still good.
        case notModified
        /// The kept copy was reloaded (a container switch) while the request was out: its answer, meant
        /// for the previous tweaks, was dropped and nothing changed.
        case superseded
    }

    /// The file a remote provider named `name` keeps its copy in, under the live app home's caches:
    /// `<home>/Library/Caches/EnvScript/RemoteTweaks/<name>.json`.
    public static func keptCopyURL(home: URL, name: String) -> URL {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        return home.appendingPathComponent("Library/Caches/EnvScript/RemoteTweaks", isDirectory: true)
            .appendingPathComponent("\(safe).json", isDirectory: false)
    }

    /// The provider's name (default "remote").
    public let name: String
    /// Where and how to fetch.
    public let configuration: Configuration

    /// The fetching, the kept copy and the refreshing, shared with ``OFREPTweakProvider``.
    private let remote: RemoteDocument<[TweakKey: Tweak]>
    private let ownDecryptor: Locked<TweakDecryptor?>

    /// Creates the provider and loads the kept copy if there is one. Nothing is fetched yet.
    public init(name: String = "remote", configuration: Configuration, decryptor: TweakDecryptor? = nil) {
        self.name = name
        self.configuration = configuration
        self.ownDecryptor = Locked(decryptor)
        self.remote = RemoteDocument(name: name, configuration: configuration) { body, file in
            Self.index(try TweakJSON.parse(body, file: file, source: name))
        }
    }

    /// This provider's own decryptor, winning over the manager's; setting it reports a change.
    public var decryptor: TweakDecryptor? {
        get { ownDecryptor.withLock { $0 } }
        set {
            ownDecryptor.withLock { $0 = newValue }
            remote.changes.send(TweakProviderChange(provider: name, keys: nil))
        }
    }

    /// What the provider knows about its data and its last attempts.
    public var status: Status { remote.status }

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

    // MARK: Refreshing

    /// Fetches the document (conditionally, when there is an ETag) and applies it.
    ///
    /// - Throws: `TweakError.Code.httpStatus`, `TweakError.Code.timedOut`,
    ///   `TweakError.Code.networkFailed` or `TweakError.Code.invalidJSON`
    ///   (for a malformed body, with the URL as the file). The current tweaks stay on failure.
    ///   After ``close()``, `TweakError.Code.remoteClosed`. Cancelling the calling task cancels the request.
    @discardableResult
    public func refresh() async throws -> RefreshResult {
        try await remote.refresh()
    }

    /// ``refresh()`` for synchronous callers: blocks the calling thread until the fetch ends (at most
    /// ``Configuration/timeout``). Do not call it from a Swift concurrency task; use ``refresh()`` there.
    @discardableResult
    public func refreshNow() throws -> RefreshResult {
        try remote.refreshNow()
    }

    /// Refreshes now, in the background, and then every ``Configuration/refreshInterval`` (when set) until
    /// ``stopRefreshing()``, ``close()`` or the provider's release; a tick that finds the previous request
    /// still out is skipped. Failures are recorded in ``status``. Calling it again starts over: the
    /// request under way is cancelled. Nothing of it runs on Swift's cooperative pool.
    public func startRefreshing() {
        remote.startRefreshing()
    }

    /// Stops the periodic refresh and cancels the request it has out.
    public func stopRefreshing() {
        remote.stopRefreshing()
    }

    /// Waits until a fetch has ended — with tweaks or with an error — since the provider was made or its
    /// kept copy last reloaded; false when none did within `timeout`. Start one with
    /// ``startRefreshing()`` or ``refresh()``: this only waits.
    public func waitUntilFetched(timeout: Duration) async -> Bool {
        await remote.waitUntilFetched(timeout: timeout)
    }

    /// ``waitUntilFetched(timeout:)`` for synchronous callers: blocks the calling thread. Do not call it
    /// from a Swift concurrency task.
    public func waitUntilFetchedBlocking(timeout: Duration) -> Bool {
        remote.waitUntilFetchedBlocking(timeout: timeout)
    }

    /// Stops for good: no refresh starts any more, requests out are cancelled, and an answer being
    /// applied is waited for, so that once it returns the kept copy is never written again and the tweaks
    /// no longer change. Lookups keep answering from the current tweaks. Calling it again does nothing.
    public func close() {
        remote.close()
    }

    /// Whether ``close()`` was called.
    package var isClosed: Bool { remote.isClosed }

    /// Re-reads the kept copy (for example after a container switch moved another one into place).
    /// A missing copy — or a copy for another URL — clears the tweaks, so that lookups never answer
    /// with another container's. Answers to fetches already out are dropped, and
    /// ``waitUntilFetched(timeout:)`` waits for the next fetch.
    ///
    /// - Throws: `TweakError.Code.invalidJSON` or a read error for a damaged copy,
    ///   also recorded in `Status/keptCopyError` (the tweaks are cleared then too).
    package func reloadKeptCopy() throws {
        try remote.reloadKeptCopy()
    }

    private static func index(_ tweaks: [Tweak]) -> [TweakKey: Tweak] {
        Dictionary(tweaks.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }
}
