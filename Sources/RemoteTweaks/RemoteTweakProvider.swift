import Foundation
import Locking
import Preferences
import Synchronization
import Tweaks

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
/// - Switches: ``reloadKeptCopy()`` adopts the kept copy of the container now live; an answer to a
///   fetch started before it is dropped (``RefreshResult/superseded``), since its `If-None-Match` named
///   the previous copy and its body would land in the new container.
/// - ``close()`` ends it all: no fetch starts, none in flight is applied, the kept copy is not written.
public final class RemoteTweakProvider: TweakProvider {
    /// Where and how to fetch.
    public struct Configuration: Sendable {
        /// The document's URL.
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
        public var coordinator: (any StoreCoordinator)?
        /// Whether a redirect to a URL may be followed (a refused one fails the fetch with the redirect's
        /// status); by default every redirect is followed. Scripts' permissions decide it for them.
        public var allowsRedirect: @Sendable (URL) -> Bool = { _ in true }

        /// Creates a configuration.
        public init(
            url: URL, refreshInterval: TimeInterval? = 300, timeout: TimeInterval = 10, keptCopy: URL? = nil,
            headers: [String: String] = [:], coordinator: (any StoreCoordinator)? = nil
        ) {
            self.url = url
            self.refreshInterval = refreshInterval
            self.timeout = timeout
            self.keptCopy = keptCopy
            self.headers = headers
            self.coordinator = coordinator
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

    private struct State {
        var tweaks: [TweakKey: Tweak]?
        var status = Status()
        /// The timer of ``startRefreshing()``; it fires on ``timerQueue``, never on Swift's cooperative
        /// pool, so refreshing goes on however busy that pool is.
        var refreshTimer: (any DispatchSourceTimer)?
        /// The request the timer has out; a tick while it is out is skipped.
        var backgroundRequest: Int?
        /// Counts reloads of the kept copy; an answer to a fetch started under another count is dropped.
        var generation = 0
        /// The requests out, so that ``close()`` can cancel them. Tasks and requests are cancelled outside
        /// the lock: a cancellation handler takes it.
        var requests: [Int: RemoteFetch] = [:]
        var nextRequest = 0
        /// Set by ``close()``: no request goes out any more.
        var isClosed = false
    }

    /// The kept copy's format: the body as fetched, with what is needed to revalidate it.
    private struct KeptCopy: Codable {
        var url: String
        var etag: String?
        var fetchedAt: Date
        var body: String
    }

    private static let timerQueue = DispatchQueue(label: "envscript.remote-tweaks.timers")
    private let state = Locked(State())
    /// Held while an answer or the kept copy is applied (file and tweaks together), so that applying,
    /// reloading and closing take turns; true once closed. Taken before `state`, never after.
    private let applying = Locked(false)
    /// Open once a fetch has ended since the provider was made or its kept copy last reloaded.
    private let fetched = FetchLatch()
    private let ownDecryptor: Locked<TweakDecryptor?>
    private let changes = TweakChangeBroadcaster()

    /// Creates the provider and loads the kept copy if there is one. Nothing is fetched yet.
    public init(name: String = "remote", configuration: Configuration, decryptor: TweakDecryptor? = nil) {
        self.name = name
        self.configuration = configuration
        self.ownDecryptor = Locked(decryptor)
        try? reloadKeptCopy()
    }

    deinit {
        // Cancelling outside the lock: a task's cancellation handler takes it.
        let (timer, requests) = state.withLock { ($0.refreshTimer, Array($0.requests.values)) }
        timer?.cancel()
        for request in requests { request.cancel() }
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
    ///   `TweakError.Code.remoteNotLoaded`.
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
    /// - Throws: `TweakError.Code.httpStatus`, `TweakError.Code.timedOut`,
    ///   `TweakError.Code.networkFailed` or `TweakError.Code.invalidJSON`
    ///   (for a malformed body, with the URL as the file). The current tweaks stay on failure.
    ///   After ``close()``, `TweakError.Code.remoteClosed`. Cancelling the calling task cancels the request.
    @discardableResult
    public func refresh() async throws -> RefreshResult {
        let request = Locked<(id: Int?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RefreshResult, any Error>) in
                let id = fetch { outcome in continuation.resume(with: outcome) }
                let cancelled = request.withLock { request in
                    request.id = id
                    return request.cancelled
                }
                if cancelled, let id { cancelRequest(id) }
            }
        } onCancel: {
            let id = request.withLock { request in
                request.cancelled = true
                return request.id
            }
            if let id { cancelRequest(id) }
        }
    }

    /// ``refresh()`` for synchronous callers: blocks the calling thread until the fetch ends (at most
    /// ``Configuration/timeout``). Do not call it from a Swift concurrency task; use ``refresh()`` there.
    @discardableResult
    public func refreshNow() throws -> RefreshResult {
        let done = DispatchSemaphore(value: 0)
        let box = Locked<Result<RefreshResult, any Error>?>(nil)
        _ = fetch { outcome in
            box.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }

    /// Refreshes now, in the background, and then every ``Configuration/refreshInterval`` (when set) until
    /// ``stopRefreshing()``, ``close()`` or the provider's release; a tick that finds the previous request
    /// still out is skipped. Failures are recorded in ``status``. Calling it again starts over: the
    /// request under way is cancelled. Nothing of it runs on Swift's cooperative pool.
    public func startRefreshing() {
        let replacedRequest = state.withLock { state -> Int? in
            if state.isClosed { return nil }
            // Made, swapped and started under the lock (none of it calls back synchronously), so two
            // callers never leave two timers running.
            state.refreshTimer?.cancel()
            let timer = makeRefreshTimer()
            state.refreshTimer = timer
            timer.resume()
            defer { state.backgroundRequest = nil }
            return state.backgroundRequest
        }
        if let replacedRequest { cancelRequest(replacedRequest) }
    }

    /// A suspended timer firing now and then every ``Configuration/refreshInterval`` (once without one).
    private func makeRefreshTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: Self.timerQueue)
        timer.setEventHandler { [weak self] in
            _ = self?.fetch(inBackground: true) { _ in }
        }
        if let interval = configuration.refreshInterval {
            timer.schedule(deadline: .now(), repeating: .nanoseconds(Int(max(interval, 0.01) * 1_000_000_000)))
        } else {
            timer.schedule(deadline: .now())
        }
        return timer
    }

    /// Stops the periodic refresh and cancels the request it has out.
    public func stopRefreshing() {
        let (timer, request) = state.withLock { state in
            defer {
                state.refreshTimer = nil
                state.backgroundRequest = nil
            }
            return (state.refreshTimer, state.backgroundRequest)
        }
        timer?.cancel()
        if let request { cancelRequest(request) }
    }

    /// Waits until a fetch has ended — with tweaks or with an error — since the provider was made or its
    /// kept copy last reloaded; false when none did within `timeout`. Start one with
    /// ``startRefreshing()`` or ``refresh()``: this only waits.
    public func waitUntilFetched(timeout: Duration) async -> Bool {
        await fetched.wait(timeout: timeout)
    }

    /// ``waitUntilFetched(timeout:)`` for synchronous callers: blocks the calling thread. Do not call it
    /// from a Swift concurrency task.
    public func waitUntilFetchedBlocking(timeout: Duration) -> Bool {
        fetched.waitBlocking(timeout: timeout)
    }

    /// Stops for good: no refresh starts any more, requests out are cancelled, and an answer being
    /// applied is waited for, so that once it returns the kept copy is never written again and the tweaks
    /// no longer change. Lookups keep answering from the current tweaks. Calling it again does nothing.
    public func close() {
        // Closed to answers first (waiting for one being applied), so that a request cancelled below
        // is never taken in as a failed fetch that lets waiters through.
        applying.withLock { $0 = true }
        let (timer, requests) = state.withLock { state in
            defer {
                state.isClosed = true
                state.refreshTimer = nil
                state.backgroundRequest = nil
                state.requests = [:]
            }
            return (state.refreshTimer, Array(state.requests.values))
        }
        timer?.cancel()
        for request in requests { request.cancel() }
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Re-reads the kept copy (for example after a container switch moved another one into place).
    /// A missing copy — or a copy for another URL — clears the tweaks, so that lookups never answer
    /// with another container's. Answers to fetches already out are dropped, and
    /// ``waitUntilFetched(timeout:)`` waits for the next fetch.
    ///
    /// - Throws: `TweakError.Code.invalidJSON` or a read error for a damaged copy,
    ///   also recorded in ``Status/keptCopyError`` (the tweaks are cleared then too).
    public func reloadKeptCopy() throws {
        guard let file = configuration.keptCopy else { return }
        var failure: (any Error)?
        let changed = applying.withLock { closed -> Bool in
            if closed { return false }
            let loaded: (tweaks: [TweakKey: Tweak], etag: String?)?
            do {
                loaded = try readKeptCopy(file)
            } catch {
                failure = error
                loaded = nil
            }
            fetched.reset()
            return state.withLock { state -> Bool in
                let before = state.tweaks
                state.generation += 1
                state.tweaks = loaded?.tweaks
                state.status.etag = loaded?.etag
                state.status.hasTweaks = loaded != nil
                state.status.isFromKeptCopy = loaded != nil
                state.status.keptCopyError = failure
                state.status.lastError = nil
                return before != state.tweaks
            }
        }
        if changed { changes.send(TweakProviderChange(provider: name, keys: nil)) }
        if let failure { throw failure }
    }

    // MARK: Private

    private func readKeptCopy(_ file: URL) throws -> (tweaks: [TweakKey: Tweak], etag: String?)? {
        let data: Data?
        if let coordinator = configuration.coordinator {
            data = try coordinator.withLock(forLiveFile: file, writing: false) { try AtomicFile.read($0.url) }
        } else {
            data = try AtomicFile.read(file)
        }
        guard let data else { return nil }
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

    /// Starts a request and returns its number (for ``cancelRequest(_:)``). `completion` runs once, on the
    /// session's queue — or at once, with `TweakError.Code.remoteClosed`, when closed (nil is returned).
    ///
    /// - Parameter inBackground: a request of the refresh timer: none starts (nil is returned and
    ///   `completion` never runs) while the timer's previous one is out.
    private func fetch(
        inBackground: Bool = false, _ completion: @escaping @Sendable (Result<RefreshResult, any Error>) -> Void
    ) -> Int? {
        let url = configuration.url
        // Made and recorded under the state's lock, so that close() cancels every request that goes out.
        let started = state.withLock { state -> (fetch: RemoteFetch, id: Int)?? in
            if state.isClosed { return .some(nil) }
            if inBackground && state.backgroundRequest != nil { return nil }
            state.status.lastAttempt = Date()
            state.nextRequest += 1
            let id = state.nextRequest
            if inBackground { state.backgroundRequest = id }
            let generation = state.generation
            var headers = configuration.headers
            // Revalidation is ours (ETag and the kept copy).
            if state.tweaks != nil, let etag = state.status.etag { headers["If-None-Match"] = etag }
            // Weak, so an abandoned provider is not kept alive by its request.
            let fetch = RemoteFetch(
                headers: headers, timeout: configuration.timeout, allowsRedirect: configuration.allowsRedirect
            ) { [weak self] result in
                guard let self else {
                    completion(.failure(TweakError.networkFailed(url: url.absoluteString, reason: "the provider was released")))
                    return
                }
                self.state.withLock { state in
                    state.requests[id] = nil
                    if state.backgroundRequest == id { state.backgroundRequest = nil }
                }
                completion(self.conclude(generation: generation) {
                    switch result {
                    case .success(let answer):
                        return try self.apply(status: answer.status, body: answer.body, etag: answer.etag)
                    case .failure(let error as CancellationError):
                        // Cancelled by its caller (stopRefreshing, startRefreshing again, close): not a failure of the server.
                        throw error
                    case .failure(RemoteFetch.Failure.timedOut):
                        throw TweakError.timedOut(url: url.absoluteString, seconds: self.configuration.timeout)
                    case .failure(RemoteFetch.Failure.failed(let reason)):
                        throw TweakError.networkFailed(url: url.absoluteString, reason: reason)
                    case .failure(let error):
                        throw TweakError.networkFailed(url: url.absoluteString, reason: "\(error)")
                    }
                })
            }
            state.requests[id] = fetch
            return (fetch, id)
        }
        guard let started else { return nil }  // the timer's previous request is still out
        guard let started else {
            completion(.failure(TweakError.remoteClosed(url: url.absoluteString)))
            return nil
        }
        started.fetch.start(url)
        return started.id
    }

    /// Cancels request `id` if it is still out; its completion then reports the cancellation.
    private func cancelRequest(_ id: Int) {
        state.withLock { $0.requests[id] }?.cancel()
    }

    /// Applies an answer under ``applying``, unless the provider was closed or its kept copy reloaded since
    /// the request went out; records a failure in ``status``, lets waiters through and reports a change.
    private func conclude(generation: Int, _ answer: () throws -> RefreshResult) -> Result<RefreshResult, any Error> {
        let url = configuration.url.absoluteString
        let outcome = applying.withLock { closed -> Result<RefreshResult, any Error> in
            if closed { return .failure(TweakError.remoteClosed(url: url)) }
            if state.withLock({ $0.generation }) != generation { return .success(.superseded) }
            let outcome = Result { try answer() }
            if case .failure(let error) = outcome, !(error is CancellationError) {
                state.withLock { $0.status.lastError = error }
            }
            return outcome
        }
        switch outcome {
        case .success(.superseded), .failure(is CancellationError):
            break
        case .failure(let error as TweakError) where error.code == .remoteClosed:
            break
        case .success(let result):
            fetched.open()
            if result == .updated { changes.send(TweakProviderChange(provider: name, keys: nil)) }
        case .failure:
            fetched.open()
        }
        return outcome
    }

    /// Turns an answer into the current tweaks (and the kept copy). Call under ``applying``.
    private func apply(status: Int, body: Data, etag: String?) throws -> RefreshResult {
        let url = configuration.url.absoluteString
        switch status {
        case 200:
            let fresh = Self.index(try TweakJSON.parse(body, file: url, source: name))
            let keptCopyError = keep(body: body, etag: etag)
            return state.withLock { state -> RefreshResult in
                let changed = state.tweaks != fresh
                state.tweaks = fresh
                state.status.etag = etag
                state.status.hasTweaks = true
                state.status.isFromKeptCopy = false
                state.status.lastSuccess = Date()
                state.status.lastError = nil
                state.status.keptCopyError = keptCopyError
                return changed ? .updated : .unchanged
            }
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
            let data = try JSONEncoder().encode(copy)
            if let coordinator = configuration.coordinator {
                try coordinator.withLock(forLiveFile: file, writing: true) { try AtomicFile.write(data, to: $0.url) }
            } else {
                try AtomicFile.write(data, to: file)
            }
            return nil
        } catch {
            return error
        }
    }

    private static func index(_ tweaks: [Tweak]) -> [TweakKey: Tweak] {
        Dictionary(tweaks.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }
}
