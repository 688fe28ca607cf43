public import Foundation
package import Preferences
import Synchronization

/// What a provider whose data is fetched over HTTP offers besides its lookups: its ``status``, refreshing
/// now or in the background, waiting for the first answer, and closing. ``RemoteTweakProvider`` (a
/// JustTweak document) and ``OFREPTweakProvider`` (an OFREP service's bulk evaluation) are the two; both
/// keep their last good answer in the container (``Configuration/keptCopy``), so they answer before the
/// first fetch and without a network.
public class FetchingTweakProvider: @unchecked Sendable {
    /// Where and how to fetch.
    public struct Configuration: Sendable {
        /// The document's URL (a ``RemoteTweakProvider``'s); for an ``OFREPTweakProvider``, the service's base URL.
        public var url: URL
        /// Seconds between refreshes once ``startRefreshing()`` is called; nil fetches
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

    /// The provider's name.
    public let name: String
    /// Where and how it fetches.
    public let configuration: Configuration

    /// The fetching, the kept copy and the refreshing.
    private let fetching: any DocumentFetching

    init(name: String, configuration: Configuration, fetching: any DocumentFetching) {
        self.name = name
        self.configuration = configuration
        self.fetching = fetching
    }

    /// What the provider knows about its data and its last attempts.
    public var status: Status { fetching.status }

    /// Fetches now (conditionally, when there is an ETag) and applies the answer.
    ///
    /// - Throws: `TweakError.Code.httpStatus` (a 429's `Retry-After` still running fails at once, without
    ///   a request), `TweakError.Code.timedOut`, `TweakError.Code.networkFailed` or
    ///   `TweakError.Code.invalidJSON` (for a malformed body, with the URL as the file). The current
    ///   data stays on failure. After ``close()``, `TweakError.Code.remoteClosed`. Cancelling the calling
    ///   task cancels the request.
    @discardableResult
    public func refresh() async throws -> RefreshResult {
        try await fetching.refresh()
    }

    /// ``refresh()`` for synchronous callers: blocks the calling thread until the fetch ends (at most
    /// ``Configuration/timeout``). Do not call it from a Swift concurrency task; use ``refresh()`` there.
    @discardableResult
    public func refreshNow() throws -> RefreshResult {
        try fetching.refreshNow()
    }

    /// Refreshes now, in the background, and then every ``Configuration/refreshInterval`` (when set) until
    /// ``stopRefreshing()``, ``close()`` or the provider's release; a tick that finds the previous request
    /// still out is skipped. Failures are recorded in ``status``. Calling it again starts over: the
    /// request under way is cancelled. Nothing of it runs on Swift's cooperative pool.
    public func startRefreshing() {
        fetching.startRefreshing()
    }

    /// Stops the periodic refresh and cancels the request it has out.
    public func stopRefreshing() {
        fetching.stopRefreshing()
    }

    /// Waits until a fetch has ended — with data or with an error — since the provider was made or its
    /// kept copy last reloaded; false when none did within `timeout`. Start one with
    /// ``startRefreshing()`` or ``refresh()``: this only waits.
    public func waitUntilFetched(timeout: Duration) async -> Bool {
        await fetching.waitUntilFetched(timeout: timeout)
    }

    /// ``waitUntilFetched(timeout:)`` for synchronous callers: blocks the calling thread. Do not call it
    /// from a Swift concurrency task.
    public func waitUntilFetchedBlocking(timeout: Duration) -> Bool {
        fetching.waitUntilFetchedBlocking(timeout: timeout)
    }

    /// Stops for good: no refresh starts any more, requests out are cancelled, and an answer being
    /// applied is waited for, so that once it returns the kept copy is never written again and the data
    /// no longer change. Lookups keep answering from the current data. Calling it again does nothing.
    public func close() {
        fetching.close()
    }

    /// Whether ``close()`` was called.
    package var isClosed: Bool { fetching.isClosed }

    /// Re-reads the kept copy (for example after a container switch moved another one into place).
    /// A missing copy — or a copy for another URL or context — clears the data, so that lookups never
    /// answer with another container's. Answers to fetches already out are dropped, and
    /// ``waitUntilFetched(timeout:)`` waits for the next fetch.
    ///
    /// - Throws: `TweakError.Code.invalidJSON` or a read error for a damaged copy, also recorded in
    ///   `Status.keptCopyError` (the data is cleared then too).
    package func reloadKeptCopy() throws {
        try fetching.reloadKeptCopy()
    }
}

/// A ``RemoteDocument`` seen without its document's type.
protocol DocumentFetching: Sendable {
    var status: FetchingTweakProvider.Status { get }
    func refresh() async throws -> FetchingTweakProvider.RefreshResult
    func refreshNow() throws -> FetchingTweakProvider.RefreshResult
    func startRefreshing()
    func stopRefreshing()
    func waitUntilFetched(timeout: Duration) async -> Bool
    func waitUntilFetchedBlocking(timeout: Duration) -> Bool
    func close()
    var isClosed: Bool { get }
    func reloadKeptCopy() throws
}

extension RemoteDocument: DocumentFetching {}
