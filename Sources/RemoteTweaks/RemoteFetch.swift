import AsyncHTTPClient
import Foundation
import Locking
import NIOCore
import NIOHTTP1
import Tweaks

/// One request (a GET, or a POST with a body) for a remote document, through AsyncHTTPClient (SwiftNIO): no libcurl, so nothing of
/// FoundationNetworking is loaded when a program starts.
///
/// Redirects are followed here, at most ``maximumRedirects``, each only to an `http` or `https` URL
/// that `allowsRedirect` accepts and that does not go from `https` down to `http`; otherwise the
/// redirect's own answer ends the fetch. The configured headers (an `Authorization`, say) go only to
/// the origin — scheme, host and port — of the URL configured: a redirect elsewhere is asked without
/// them. The whole fetch, redirects included,
/// must end within `timeout` seconds. ``cancel()`` ends it with a `CancellationError`.
final class RemoteFetch: Sendable {
    /// What the server answered.
    struct Answer: Sendable {
        var status: Int
        var body: Data
        var etag: String?
        /// The `Retry-After` header, as sent.
        var retryAfter: String?
    }

    /// Why a fetch ended without an answer, other than a cancellation.
    enum Failure: Error {
        case timedOut
        case failed(reason: String)
    }

    static let maximumRedirects = 10

    /// One client for every remote provider of the process, following no redirect on its own.
    private static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    private let method: HTTPMethod
    private let body: Data?
    private let headers: [String: String]
    private let deadline: NIODeadline
    private let maximumBodySize: Int
    private let allowsRedirect: @Sendable (URL) -> Bool
    private let completion: @Sendable (Result<Answer, any Error>) -> Void
    private let state = Locked<(task: HTTPClient.Task<HTTPClient.Response>?, cancelled: Bool)>((nil, false))

    /// A fetch that `start(_:)` begins; `completion` runs once, on one of the client's threads.
    init(
        method: String = "GET", body: Data? = nil, headers: [String: String], timeout: TimeInterval,
        maximumBodySize: Int = RemoteTweakProvider.Configuration.defaultMaximumBodySize,
        allowsRedirect: @escaping @Sendable (URL) -> Bool,
        completion: @escaping @Sendable (Result<Answer, any Error>) -> Void
    ) {
        self.maximumBodySize = maximumBodySize
        self.method = HTTPMethod(rawValue: method)
        self.body = body
        self.headers = headers
        self.deadline = .now() + .nanoseconds(Int64(min(max(timeout, 0), 86_400 * 365) * 1e9))
        self.allowsRedirect = allowsRedirect
        self.completion = completion
    }

    /// Sends the request for `url`.
    func start(_ url: URL) {
        request(url, redirects: 0, origin: Self.origin(of: url))
    }

    /// Scheme, host and port, as compared for sending the configured headers.
    private static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Whether a redirect from `from` may be followed to `to`.
    private func mayFollow(from: URL, to: URL) -> Bool {
        guard let scheme = to.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        if from.scheme?.lowercased() == "https" && scheme == "http" { return false }
        return allowsRedirect(to)
    }

    /// Ends the fetch: its completion reports a `CancellationError`.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }

    private func request(_ url: URL, redirects: Int, origin: String, seeOther: Bool = false) {
        let request: HTTPClient.Request
        do {
            var sent = Self.origin(of: url) == origin ? Array(headers) : []
            // A 303 turns a POST into a GET; other redirects keep the method and the body.
            let method = redirects > 0 && seeOther ? HTTPMethod.GET : self.method
            let body = method == .GET ? nil : self.body
            if body != nil && !sent.contains(where: { $0.0.lowercased() == "content-type" }) {
                sent.append(("Content-Type", "application/json"))
            }
            request = try HTTPClient.Request(
                url: url.absoluteString, method: method, headers: HTTPHeaders(sent), body: body.map { .bytes($0) })
        } catch {
            return completion(.failure(Failure.failed(reason: "\(error)")))
        }
        let task: HTTPClient.Task<HTTPClient.Response>? = state.withLock { state in
            if state.cancelled { return nil }
            let task = Self.client.execute(
                request: request, delegate: ResponseAccumulator(request: request, maxBodySize: maximumBodySize), deadline: deadline)
            state.task = task
            return task
        }
        guard let task else { return completion(.failure(CancellationError())) }
        task.futureResult.whenComplete { [self] result in
            switch result {
            case .success(let response):
                let status = Int(response.status.code)
                if (300...399).contains(status), status != 304, redirects < Self.maximumRedirects,
                   let location = response.headers.first(name: "Location"),
                   let next = URL(string: location, relativeTo: url)?.absoluteURL,
                   mayFollow(from: url, to: next) {
                    return self.request(next, redirects: redirects + 1, origin: origin, seeOther: seeOther || status == 303)
                }
                completion(.success(Answer(
                    status: status, body: Data(response.body.map { Array($0.readableBytesView) } ?? []),
                    etag: response.headers.first(name: "ETag"),
                    retryAfter: response.headers.first(name: "Retry-After"))))
            case .failure(let error):
                completion(.failure(Self.failure(error, cancelled: self.state.withLock { $0.cancelled })))
            }
        }
    }

    private static func failure(_ error: any Error, cancelled: Bool) -> any Error {
        if cancelled { return CancellationError() }
        if let tooBig = error as? ResponseAccumulator.ResponseTooBigError {
            return Failure.failed(reason: "the answer is larger than \(tooBig.maxBodySize) bytes, the most accepted (maximumBodySize; max_body in Lua)")
        }
        if let error = error as? HTTPClientError,
           [.deadlineExceeded, .connectTimeout, .readTimeout].contains(error) {
            return Failure.timedOut
        }
        if let error = error as? HTTPClientError, error == .cancelled { return CancellationError() }
        return Failure.failed(reason: "\(error)")
    }
}
