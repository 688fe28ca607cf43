import Foundation
import Preferences
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
///   and ``startRefreshing()`` to refresh every ``Configuration/refreshInterval``.
public final class RemoteTweakProvider: TweakProvider {
    /// Where and how to fetch.
    public struct Configuration: Sendable {
        /// The document's URL.
        public var url: URL
        /// Seconds between refreshes once ``RemoteTweakProvider/startRefreshing()`` is called.
        public var refreshInterval: TimeInterval
        /// Seconds a request may take, in total, before it fails with ``TweakError/timedOut(url:seconds:)``.
        public var timeout: TimeInterval
        /// The file keeping the last good document; nil keeps nothing.
        public var keptCopy: URL?
        /// Extra request headers (authorization, say).
        public var headers: [String: String]

        /// Creates a configuration.
        public init(
            url: URL, refreshInterval: TimeInterval = 300, timeout: TimeInterval = 10, keptCopy: URL? = nil,
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
        public var hasTweaks = false
        /// Whether the current tweaks came from the kept copy rather than from a fetch in this run.
        public var isFromKeptCopy = false
        /// When the last fetch succeeded (200 or 304).
        public var lastSuccess: Date?
        /// When the last fetch was attempted.
        public var lastAttempt: Date?
        /// The error of the last fetch, nil after a success.
        public var lastError: (any Error)?
        /// The last failure to read or write the kept copy, nil after a success.
        public var keptCopyError: (any Error)?
    }

    /// The outcome of a successful refresh.
    public enum RefreshResult: Sendable, Hashable {
        /// A new document was fetched and differs from the previous tweaks.
        case updated
        /// A document was fetched (200) but holds the same tweaks.
        case unchanged
        /// The server answered 304: the current tweaks are still good.
        case notModified
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

    private struct State {
        var tweaks: [TweakKey: Tweak]?
        var status = Status()
        var refreshTask: Task<Void, Never>?
    }

    /// The kept copy's format: the body as fetched, with what is needed to revalidate it.
    private struct KeptCopy: Codable {
        var url: String
        var etag: String?
        var fetchedAt: Date
        var body: String
    }

    private let state = Mutex(State())
    private let ownDecryptor: Mutex<TweakDecryptor?>
    private let changes = TweakChangeBroadcaster()
    private let session: URLSession

    /// Creates the provider and loads the kept copy if there is one. Nothing is fetched yet.
    public init(name: String = "remote", configuration: Configuration, decryptor: TweakDecryptor? = nil) {
        self.name = name
        self.configuration = configuration
        self.ownDecryptor = Mutex(decryptor)
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // Revalidation is ours (ETag and the kept copy); a URL cache would answer 304s behind our back.
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.timeoutIntervalForResource = configuration.timeout
        self.session = URLSession(configuration: sessionConfiguration)
        try? reloadKeptCopy()
    }

    deinit {
        state.withLock { $0.refreshTask?.cancel() }
        // The last reference may be dropped on the session's own queue (inside a completion handler), where
        // invalidating synchronously would wait on itself; so invalidate from elsewhere.
        let session = self.session
        DispatchQueue.global().async { session.invalidateAndCancel() }
    }

    /// This provider's own decryptor, winning over the manager's; setting it reports a change.
    public var decryptor: TweakDecryptor? {
        get { ownDecryptor.withLock { $0 } }
        set {
            ownDecryptor.withLock { $0 = newValue }
            changes.send(TweakProviderChange(provider: name, keys: nil))
        }
    }

    /// What the provider knows about its data and its last attempts.
    public var status: Status { state.withLock { $0.status } }

    // MARK: TweakProvider

    /// The tweak from the current document, or nil.
    ///
    /// - Throws: when there is no document at all: the last fetch's error, or
    ///   ``TweakError/remoteNotLoaded(url:)``.
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        try currentTweaks()[TweakKey(feature: feature, variable: variable)]
    }

    /// All tweaks of the current document.
    public func allTweaks() throws -> [Tweak] {
        Array(try currentTweaks().values)
    }

    /// Reports refreshes that changed the tweaks, kept-copy reloads and decryptor changes.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        changes.observe(handler)
    }

    private func currentTweaks() throws -> [TweakKey: Tweak] {
        let (tweaks, failure) = state.withLock { ($0.tweaks, $0.status.lastError ?? $0.status.keptCopyError) }
        guard let tweaks else { throw failure ?? TweakError.remoteNotLoaded(url: configuration.url.absoluteString) }
        return tweaks
    }

    // MARK: Refreshing

    /// Fetches the document (conditionally, when there is an ETag) and applies it.
    ///
    /// - Throws: ``TweakError/httpStatus(url:status:)``, ``TweakError/timedOut(url:seconds:)``,
    ///   ``TweakError/networkFailed(url:reason:)`` or ``TweakError/invalidJSON(file:line:column:key:reason:)``
    ///   (for a malformed body, with the URL as the file). The current tweaks stay on failure.
    @discardableResult
    public func refresh() async throws -> RefreshResult {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RefreshResult, any Error>) in
            fetch { outcome in continuation.resume(with: outcome) }
        }
    }

    /// ``refresh()`` for synchronous callers: blocks the calling thread until the fetch ends (at most
    /// ``Configuration/timeout``). Do not call it from a Swift concurrency task; use ``refresh()`` there.
    @discardableResult
    public func refreshNow() throws -> RefreshResult {
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<Result<RefreshResult, any Error>?>(nil)
        fetch { outcome in
            box.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }

    /// Refreshes now and then every ``Configuration/refreshInterval`` until ``stopRefreshing()`` or until
    /// the provider is released. Failures are recorded in ``status``.
    public func startRefreshing() {
        let interval = max(configuration.refreshInterval, 0.01)
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                guard let provider = self else { return }
                _ = try? await provider.refresh()
                try? await Task.sleep(for: .seconds(interval))
            }
        }
        let previous = state.withLock { state in
            defer { state.refreshTask = task }
            return state.refreshTask
        }
        previous?.cancel()
    }

    /// Stops the periodic refresh.
    public func stopRefreshing() {
        state.withLock { state in
            state.refreshTask?.cancel()
            state.refreshTask = nil
        }
    }

    /// Re-reads the kept copy (for example after a container switch moved another one into place).
    /// A missing copy clears the tweaks; a copy for another URL is ignored.
    ///
    /// - Throws: ``TweakError/invalidJSON(file:line:column:key:reason:)`` or a read error for a damaged copy,
    ///   also recorded in ``Status/keptCopyError``.
    public func reloadKeptCopy() throws {
        guard let file = configuration.keptCopy else { return }
        let loaded: (tweaks: [TweakKey: Tweak], etag: String?)?
        do {
            loaded = try readKeptCopy(file)
        } catch {
            state.withLock { $0.status.keptCopyError = error }
            throw error
        }
        let changed = state.withLock { state -> Bool in
            let before = state.tweaks
            state.tweaks = loaded?.tweaks
            state.status.etag = loaded?.etag
            state.status.hasTweaks = loaded != nil
            state.status.isFromKeptCopy = loaded != nil
            state.status.keptCopyError = nil
            return before != state.tweaks
        }
        if changed { changes.send(TweakProviderChange(provider: name, keys: nil)) }
    }

    // MARK: Private

    private func readKeptCopy(_ file: URL) throws -> (tweaks: [TweakKey: Tweak], etag: String?)? {
        guard let data = try AtomicFile.read(file) else { return nil }
        let copy: KeptCopy
        do {
            copy = try JSONDecoder().decode(KeptCopy.self, from: data)
        } catch {
            throw TweakError.invalidJSON(
                file: file.path, line: 1, column: 1, key: nil, reason: "not a kept copy of remote tweaks (\(error)); delete it")
        }
        guard copy.url == configuration.url.absoluteString else { return nil }
        let tweaks = try TweakJSON.parse(Data(copy.body.utf8), file: file.path, source: name)
        return (Self.index(tweaks), copy.etag)
    }

    private func fetch(_ completion: @escaping @Sendable (Result<RefreshResult, any Error>) -> Void) {
        let url = configuration.url
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: configuration.timeout)
        for (field, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: field) }
        let etag = state.withLock { state -> String? in
            state.status.lastAttempt = Date()
            return state.tweaks == nil ? nil : state.status.etag
        }
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }

        // Weak, so an abandoned provider is not kept alive by its request.
        let task = session.dataTask(with: request) { [weak self] data, response, error in
            guard let self else {
                completion(.failure(TweakError.networkFailed(url: url.absoluteString, reason: "the provider was released")))
                return
            }
            let outcome: Result<RefreshResult, any Error>
            if let error {
                outcome = .failure(self.networkError(error))
            } else if let response = response as? HTTPURLResponse {
                outcome = Result {
                    try self.apply(
                        status: response.statusCode, body: data ?? Data(),
                        etag: response.value(forHTTPHeaderField: "ETag"))
                }
            } else {
                outcome = .failure(TweakError.networkFailed(url: url.absoluteString, reason: "the response is not HTTP"))
            }
            if case .failure(let error) = outcome {
                self.state.withLock { $0.status.lastError = error }
            }
            completion(outcome)
        }
        task.resume()
    }

    private func apply(status: Int, body: Data, etag: String?) throws -> RefreshResult {
        let url = configuration.url.absoluteString
        switch status {
        case 200:
            let fresh = Self.index(try TweakJSON.parse(body, file: url, source: name))
            let keptCopyError = keep(body: body, etag: etag)
            let changed = state.withLock { state -> Bool in
                let changed = state.tweaks != fresh
                state.tweaks = fresh
                state.status.etag = etag
                state.status.hasTweaks = true
                state.status.isFromKeptCopy = false
                state.status.lastSuccess = Date()
                state.status.lastError = nil
                state.status.keptCopyError = keptCopyError
                return changed
            }
            if changed { changes.send(TweakProviderChange(provider: name, keys: nil)) }
            return changed ? .updated : .unchanged
        case 304:
            let hadTweaks = state.withLock { state -> Bool in
                guard state.tweaks != nil else { return false }
                state.status.lastSuccess = Date()
                state.status.lastError = nil
                return true
            }
            guard hadTweaks else { throw TweakError.httpStatus(url: url, status: status) }
            return .notModified
        default:
            throw TweakError.httpStatus(url: url, status: status)
        }
    }

    /// Writes the kept copy; returns the failure instead of throwing, since the fetch itself succeeded.
    private func keep(body: Data, etag: String?) -> (any Error)? {
        guard let file = configuration.keptCopy else { return nil }
        do {
            let copy = KeptCopy(
                url: configuration.url.absoluteString, etag: etag, fetchedAt: Date(),
                body: String(decoding: body, as: UTF8.self))
            try AtomicFile.write(try JSONEncoder().encode(copy), to: file)
            return nil
        } catch {
            return error
        }
    }

    private func networkError(_ error: any Error) -> TweakError {
        let url = configuration.url.absoluteString
        if let urlError = error as? URLError, urlError.code == .timedOut {
            return .timedOut(url: url, seconds: configuration.timeout)
        }
        return .networkFailed(url: url, reason: (error as NSError).localizedDescription)
    }

    private static func index(_ tweaks: [Tweak]) -> [TweakKey: Tweak] {
        Dictionary(tweaks.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }
}
