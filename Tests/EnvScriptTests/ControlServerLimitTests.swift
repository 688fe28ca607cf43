import AsyncHTTPClient
import EnvScript
import Foundation
import Hummingbird
import Testing
import TestSupport

/// The control API's server on a Unix socket within its ``ServerLimits``, with real connections: those
/// past the cap wait their turn, idle ones are closed after the idle timeout, and a real request is
/// still answered; a request past the decoder's limits is answered with the API's JSON error.
@Suite(.timeLimit(.minutes(10))) struct ControlServerLimitTests {
    /// A host's control routes served by a ``BackgroundServer`` on a socket of a short folder of its own
    /// (a Unix socket path must stay under about 100 bytes), removed with the server by `stop`.
    private final class Served {
        let fixture: HostFixture
        let folder: String
        let socketPath: String
        let server: BackgroundServer

        init(limits: ServerLimits) throws {
            fixture = try HostFixture(attaches: false)
            folder = "/tmp/esl-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            socketPath = folder + "/control.sock"
            let router = Router()
            router.add(middleware: ControlErrorMiddleware())
            ControlRoutes.register(on: router, host: fixture.host)
            server = try BackgroundServer(
                router: router, address: .unixDomainSocket(path: socketPath), serverName: "envscript", limits: limits)
        }

        func stop() async throws {
            let (server, folder) = (server, folder)
            _ = try await onAnotherThread {
                server.stop()
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
    }

    @Test func aPathAndHeadersPastTheLimitAreAnsweredWithTheJSONError() async throws {
        let served = try Served(limits: ServerLimits())
        for request in [
            "GET /v1/containers HTTP/1.1\r\nHost: localhost\r\nX-Big: \(String(repeating: "a", count: 90_000))\r\n\r\n",
            "GET /v1/\(String(repeating: "a", count: 90_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n",
        ] {
            let connection = try RawSocketConnection(path: served.socketPath)
            try? connection.send(request)
            let answer = connection.readToEnd(timeout: 10)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
            #expect(answer.contains("application/json"), "\(answer.prefix(300))")
            #expect(answer.contains(#"{"error":{"code":"bad_request","message":"the request's path and headers are too large"#), "\(answer.prefix(300))")
        }
        try await served.stop()
    }

    /// Served as a host's socket is, by a router gone once its server is built.
    @Test func aMethodAPathDoesNotTakeIs405() async throws {
        let served = try Served(limits: ServerLimits())
        let connection = try RawSocketConnection(path: served.socketPath)
        try connection.send("TRACE /v1/containers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let answer = connection.readToEnd(timeout: 10)
        #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer)")
        #expect(answer.contains("Allow: GET, POST"), "\(answer)")
        #expect(answer.contains(#""code":"method_not_allowed""#), "\(answer)")
        try await served.stop()
    }

    @Test func idleConnectionsPastTheCapAreClosedInTurnAndARealRequestIsServed() async throws {
        let served = try Served(limits: ServerLimits(maximumConnections: 4, idleTimeout: .seconds(1)))
        let socketPath = served.socketPath
        let client = HTTPClient(eventLoopGroupProvider: .singleton)

        let idle = try (0..<12).map { _ in try RawSocketConnection(path: socketPath) }
        let url = URL(httpURLWithSocketPath: socketPath, uri: "/v1/containers")!.absoluteString
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        #expect(response.status.code == 200, "\(body)")
        #expect(body.contains("DEFAULT"))
        try await waitUntil("the server closed every idle connection", timeout: .seconds(20)) {
            idle.allSatisfy(\.isClosedByPeer)
        }

        try await client.shutdown()
        try await served.stop()
    }
}
