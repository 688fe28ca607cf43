@testable import EnvScript
import Foundation
import Hummingbird
import Locking

/// A real Hummingbird server on 127.0.0.1 (a port of its own) serving tweaks at `/tweaks.json`, for
/// the tests of `tweak.remote`: the document, its ETag (a matching `If-None-Match` gets 304) and a
/// delay before answering can be changed while it runs; it counts requests received and answered.
final class RemoteTweakServer: Sendable {
    /// What the server answers.
    struct Answer: Sendable {
        var body: String
        var etag: String?
        var status = 200
        /// How long the server waits before answering.
        var delay: Duration = .zero
        /// The `Location` of a redirect (with a 3xx `status`).
        var location: String?
    }

    /// A request as the server saw it.
    struct Request: Sendable {
        var ifNoneMatch: String?
        var authorization: String?
    }

    private struct State {
        var answer: Answer
        var requests: [Request] = []
        var answered = 0
    }

    /// What the route handler and the tests share.
    private final class Shared: Sendable {
        let state: Locked<State>
        init(_ answer: Answer) { state = Locked(State(answer: answer)) }
    }

    private let shared: Shared
    private let server: BackgroundServer
    /// The port the server listens on.
    let port: Int

    var url: String { "http://127.0.0.1:\(port)/tweaks.json" }

    /// Every request received so far, answered or not.
    var requests: [Request] { shared.state.withLock { $0.requests } }
    /// How many requests were answered.
    var answered: Int { shared.state.withLock { $0.answered } }

    /// Changes what the next requests get.
    func answer(_ change: (inout Answer) -> Void) {
        shared.state.withLock { change(&$0.answer) }
    }

    private init(shared: Shared, server: BackgroundServer, port: Int) {
        self.shared = shared
        self.server = server
        self.port = port
    }

    /// Starts a server answering `answer`; returns once it listens.
    static func start(_ answer: Answer) async throws -> RemoteTweakServer {
        let shared = Shared(answer)
        let router = Router()
        router.get("/tweaks.json") { request, _ -> Response in
            let ifNoneMatch = request.headers[.ifNoneMatch]
            let answer = shared.state.withLock { state in
                state.requests.append(Request(ifNoneMatch: ifNoneMatch, authorization: request.headers[.authorization]))
                return state.answer
            }
            if answer.delay > .zero { try await Task.sleep(for: answer.delay) }
            defer { shared.state.withLock { $0.answered += 1 } }
            var headers: HTTPFields = [:]
            if let etag = answer.etag {
                headers[.eTag] = etag
                if answer.status == 200, ifNoneMatch == etag { return Response(status: .notModified, headers: headers) }
            }
            if let location = answer.location { headers[.location] = location }
            headers[.contentType] = "application/json"
            return Response(
                status: HTTPResponse.Status(code: answer.status), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
        }
        // The host's own kind of server: off Swift's cooperative pool (tests that block the pool's two
        // threads must not hold the answers up), stopped gracefully.
        let server = try BackgroundServer(
            router: router, address: .hostname("127.0.0.1", port: 0), serverName: "remote-tweak-server")
        return RemoteTweakServer(shared: shared, server: server, port: server.port ?? 0)
    }

    /// Stops the server: from then on, connections to its port are refused.
    func stop() async {
        await server.stopAndWait()
    }
}
