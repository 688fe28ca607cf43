import Foundation
import Locking
import Preferences
import Synchronization
import Tweaks

/// The queue every remote document's refresh timer fires on.
let remoteTimerQueue = DispatchQueue(label: "envscript.remote-tweaks.timers")

/// A document fetched over HTTP and kept: the machinery of ``RemoteTweakProvider`` and
/// ``OFREPTweakProvider`` — conditional requests (`ETag`, `If-None-Match`, 304), the kept copy in the
/// container (through the store coordinator), background refreshing on a timer, `Retry-After` on a 429,
/// reloads after switches and closing. What the document is, is `parse`'s business.
///
/// A kept copy is only taken for the same URL and the same request body (a POST's context).
final class RemoteDocument<Document: Sendable & Equatable>: Sendable {
    typealias Status = RemoteTweakProvider.Status
    typealias RefreshResult = RemoteTweakProvider.RefreshResult

    /// How the document is asked for: GET, or POST with a body.
    struct Request: Sendable {
        var method: String = "GET"
        var body: Data?
    }

    /// The provider's name, for changes.
    let name: String
    /// Where and how to fetch (the URL is the document's).
    let configuration: RemoteTweakProvider.Configuration
    let request: Request
    /// Reads a body (fetched, or from the kept copy); the second argument names the source in errors.
    let parse: @Sendable (Data, String) throws -> Document

    init(
        name: String, configuration: RemoteTweakProvider.Configuration, request: Request = Request(),
        parse: @escaping @Sendable (Data, String) throws -> Document
    ) {
        self.name = name
        self.configuration = configuration
        self.request = request
        self.parse = parse
        try? reloadKeptCopy()
    }

    /// The current document.
    ///
    /// - Throws: when there is none: the last fetch's error, or `TweakError.Code.remoteNotLoaded`.
    func current() throws -> Document {
        let (document, failure) = state.withLock { ($0.document, $0.status.lastError ?? $0.status.keptCopyError) }
        guard let document else { throw failure ?? TweakError.remoteNotLoaded(url: configuration.url.absoluteString) }
        return document
    }

    private struct State {
        var document: Document?
        /// No request goes out before this moment: a 429's `Retry-After`.
        var retryNotBefore: Date?
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
        /// The request's body, for a POST (an OFREP bulk evaluation's context).
        var request: String?
    }

    private static var timerQueue: DispatchQueue { remoteTimerQueue }
    private let state = Locked(State())
    /// Held while an answer or the kept copy is applied (file and tweaks together), so that applying,
    /// reloading and closing take turns; true once closed. Taken before `state`, never after.
    private let applying = Locked(false)
    /// Open once a fetch has ended since the provider was made or its kept copy last reloaded.
    private let fetched = FetchLatch()
    let changes = TweakChangeBroadcaster()

    deinit {
        // Cancelling outside the lock: a task's cancellation handler takes it.
        let (timer, requests) = state.withLock { ($0.refreshTimer, Array($0.requests.values)) }
        timer?.cancel()
        for request in requests { request.cancel() }
    }

    /// What the provider knows about its data and its last attempts.
    var status: Status { state.withLock { $0.status } }

    // MARK: Refreshing

    /// Fetches the document (conditionally, when there is an ETag) and applies it.
    ///
    /// - Throws: `TweakError.Code.httpStatus`, `TweakError.Code.timedOut`,
    ///   `TweakError.Code.networkFailed` or `TweakError.Code.invalidJSON`
    ///   (for a malformed body, with the URL as the file). The current tweaks stay on failure.
    ///   After ``close()``, `TweakError.Code.remoteClosed`. Cancelling the calling task cancels the request.
    @discardableResult
    func refresh() async throws -> RefreshResult {
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
    func refreshNow() throws -> RefreshResult {
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
    func startRefreshing() {
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
    func stopRefreshing() {
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
    func waitUntilFetched(timeout: Duration) async -> Bool {
        await fetched.wait(timeout: timeout)
    }

    /// ``waitUntilFetched(timeout:)`` for synchronous callers: blocks the calling thread. Do not call it
    /// from a Swift concurrency task.
    func waitUntilFetchedBlocking(timeout: Duration) -> Bool {
        fetched.waitBlocking(timeout: timeout)
    }

    /// Stops for good: no refresh starts any more, requests out are cancelled, and an answer being
    /// applied is waited for, so that once it returns the kept copy is never written again and the tweaks
    /// no longer change. Lookups keep answering from the current tweaks. Calling it again does nothing.
    func close() {
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
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Re-reads the kept copy (for example after a container switch moved another one into place).
    /// A missing copy — or a copy for another URL — clears the tweaks, so that lookups never answer
    /// with another container's. Answers to fetches already out are dropped, and
    /// ``waitUntilFetched(timeout:)`` waits for the next fetch.
    ///
    /// - Throws: `TweakError.Code.invalidJSON` or a read error for a damaged copy,
    ///   also recorded in ``Status/keptCopyError`` (the tweaks are cleared then too).
    func reloadKeptCopy() throws {
        guard let file = configuration.keptCopy else { return }
        var failure: (any Error)?
        let changed = applying.withLock { closed -> Bool in
            if closed { return false }
            let loaded: (document: Document, etag: String?)?
            do {
                loaded = try readKeptCopy(file)
            } catch {
                failure = error
                loaded = nil
            }
            fetched.reset()
            return state.withLock { state -> Bool in
                let before = state.document
                state.generation += 1
                state.document = loaded?.document
                state.status.etag = loaded?.etag
                state.status.hasTweaks = loaded != nil
                state.status.isFromKeptCopy = loaded != nil
                state.status.keptCopyError = failure
                state.status.lastError = nil
                return before != state.document
            }
        }
        if changed { changes.send(TweakProviderChange(provider: name, keys: nil)) }
        if let failure { throw failure }
    }

    // MARK: Private

    private func readKeptCopy(_ file: URL) throws -> (document: Document, etag: String?)? {
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
        guard copy.url == configuration.url.absoluteString, copy.request == request.body.map({ String(decoding: $0, as: UTF8.self) })
        else { return nil }
        return (try parse(Data(copy.body.utf8), file.path), copy.etag)
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
        var refusedUntil: Date?
        // Made and recorded under the state's lock, so that close() cancels every request that goes out.
        let started = state.withLock { state -> (fetch: RemoteFetch, id: Int)?? in
            if state.isClosed { return .some(nil) }
            if inBackground && state.backgroundRequest != nil { return nil }
            // A 429 asked for a pause: the timer's ticks pass, a caller's refresh fails.
            if let notBefore = state.retryNotBefore, Date() < notBefore {
                if inBackground { return nil }
                refusedUntil = notBefore
                return .some(nil)
            }
            state.status.lastAttempt = Date()
            state.nextRequest += 1
            let id = state.nextRequest
            if inBackground { state.backgroundRequest = id }
            let generation = state.generation
            var headers = configuration.headers
            // Revalidation is ours (ETag and the kept copy).
            if state.document != nil, let etag = state.status.etag { headers["If-None-Match"] = etag }
            // Weak, so an abandoned provider is not kept alive by its request.
            let fetch = RemoteFetch(
                method: request.method, body: request.body, headers: headers, timeout: configuration.timeout,
                maximumBodySize: configuration.maximumBodySize, allowsRedirect: configuration.allowsRedirect
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
                        return try self.apply(status: answer.status, body: answer.body, etag: answer.etag, retryAfter: answer.retryAfter)
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
            if refusedUntil != nil {
                completion(.failure(TweakError.httpStatus(url: url.absoluteString, status: 429)))
                return nil
            }
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
    private func apply(status: Int, body: Data, etag: String?, retryAfter: String?) throws -> RefreshResult {
        let url = configuration.url.absoluteString
        switch status {
        case 200:
            let etag = etag.flatMap { $0.utf8.count <= Self.longestEntityTag ? $0 : nil }
            let fresh = try parse(body, url)
            let keptCopyError = keep(body: body, etag: etag)
            return state.withLock { state -> RefreshResult in
                let changed = state.document != fresh
                state.document = fresh
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
                guard state.document != nil else { return false }
                state.status.lastSuccess = Date()
                state.status.lastError = nil
                return true
            }
            guard hadTweaks else { throw TweakError.httpStatus(url: url, status: status) }
            return .notModified
        case 429:
            let pause = retryAfter.flatMap { Self.retryDate($0, now: Date()) }
            state.withLock { $0.retryNotBefore = pause }
            throw TweakError.httpStatus(url: url, status: status)
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
                body: String(decoding: body, as: UTF8.self),
                request: request.body.map { String(decoding: $0, as: UTF8.self) })
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

    /// The longest pause a `Retry-After` may ask for: an hour. A server (or whoever answers in its place)
    /// asking for a year would otherwise stop every refresh until the process ends.
    static var longestRetryPause: TimeInterval { 3600 }

    /// The longest entity tag kept and sent back: a longer one (the review saw 60 KB echoed on every
    /// request) is dropped, and the next fetch is a full one.
    static var longestEntityTag: Int { 1024 }

    /// The moment a `Retry-After` names, at most ``longestRetryPause`` after `now`: a number of seconds
    /// from `now`, or an HTTP date; nil for anything else.
    static func retryDate(_ value: String, now: Date) -> Date? {
        guard let date = namedRetryDate(value, now: now) else { return nil }
        return min(date, now.addingTimeInterval(longestRetryPause))
    }

    private static func namedRetryDate(_ value: String, now: Date) -> Date? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return now.addingTimeInterval(TimeInterval(min(max(seconds, 0), Int(longestRetryPause)))) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
