import AsyncHTTPClient
import EnvScript
import Foundation
import Hummingbird

/// A host over a temporary home with the control routes served on a Unix socket by the server a host
/// serves them with (`BackgroundServer`), and a real AsyncHTTPClient calling it over `http+unix://`.
///
/// The start-up script (`startup.lua` in the fixture's folder) declares what the tests and the OpenAPI examples use: a stack of the overrides
/// above a JSON file with `checkout.button_color` ("blue", with title, group and description), stored
/// state `session.user`, memory state `cart.count`, and a will-change hook that refuses to activate a
/// container named `Frozen`.
final class ControlAPIFixture {
    static let refusalMessage = "Frozen is kept for the release check; activate another container"

    let fixture: HostFixture
    var host: EnvScriptHost { fixture.host }
    let socketPath: String
    let router: Router<BasicRequestContext>
    let client: HTTPClient

    private init(fixture: HostFixture, socketPath: String, router: Router<BasicRequestContext>, client: HTTPClient) {
        self.fixture = fixture
        self.socketPath = socketPath
        self.router = router
        self.client = client
    }

    /// Serves a fresh host, runs `body`, then shuts the client and the server down.
    static func with(_ body: (ControlAPIFixture) async throws -> Void) async throws {
        let fixture = try HostFixture()
        let tweaksFile = try fixture.write("tweaks.json", """
            {"checkout": {"button_color": {"Title": "Button colour", "Group": "Checkout",
                                           "Description": "The colour of the pay button", "Value": "blue"},
                          "enabled": {"Value": true}}}
            """)
        // A start-up script, so that `POST /v1/reload` has one to run again.
        let startup = try fixture.write("startup.lua", """
            tweak.stack{ tweak.overrides(), tweak.json('\(tweaksFile)', 'shipped') }
            state.stored('session.user', '')
            state.memory('cart.count', 0)
            container.on_will_change(function(to)
              if to.name == 'Frozen' then error('\(refusalMessage)') end
            end)
            """)
        try fixture.host.runStartupScript(atPath: startup)
        // A short folder of its own: a Unix socket path must stay under about 100 bytes.
        let folder = "/tmp/esc-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socketPath = folder + "/control.sock"

        let router = Router()
        router.add(middleware: ControlErrorMiddleware())
        ControlRoutes.register(on: router, host: fixture.host)
        // Served as a host's own control socket is: one event-loop thread for every server of the
        // process, each handler's steps on it.
        let server = try BackgroundServer(
            router: router, address: .unixDomainSocket(path: socketPath), serverName: "envscript-control-tests")
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let api = ControlAPIFixture(fixture: fixture, socketPath: socketPath, router: router, client: client)
        // Stopped gracefully, never by cancelling: NIO traps on a connection accepted as a cancelled
        // server goes (swift-nio#2637).
        do {
            try await body(api)
        } catch {
            try? await client.shutdown()
            await server.stopAndWait()
            throw error
        }
        try await client.shutdown()
        await server.stopAndWait()
    }

    /// An answer: its status, content type and body.
    struct Answer: CustomStringConvertible {
        let status: Int
        let contentType: String?
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        /// The body as JSON; throws when it is not.
        func json() throws -> JSONValue { try JSONValue.parse(body) }
        /// The `error.code` of an error answer.
        var errorCode: String? { (try? json())?["error"]?["code"]?.string }
        /// The `error.message` of an error answer.
        var errorMessage: String? { (try? json())?["error"]?["message"]?.string }
        var description: String { "\(status) \(text)" }
    }

    /// The request for `path` over the socket.
    func request(_ method: String, _ path: String, body: String? = nil) -> HTTPClientRequest {
        request(method, path, body: body.map { Data($0.utf8) }, contentType: "application/json")
    }

    /// The request for `path` over the socket, with `body` of `contentType`.
    func request(_ method: String, _ path: String, body: Data?, contentType: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: URL(httpURLWithSocketPath: socketPath, uri: path)!.absoluteString)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        return request
    }

    /// Sends a request and reads the whole answer (failing after 60 s rather than hanging).
    func send(_ method: String, _ path: String, body: String? = nil) async throws -> Answer {
        try await send(request(method, path, body: body))
    }

    /// Sends a zip archive as the body of a request and reads the whole answer.
    func send(_ method: String, _ path: String, archive: Data) async throws -> Answer {
        try await send(request(method, path, body: archive, contentType: "application/zip"))
    }

    /// Sends `bytes` as a JSON body exactly as given (which may be no valid UTF-8) and reads the whole answer.
    func send(_ method: String, _ path: String, bytes: Data) async throws -> Answer {
        try await send(request(method, path, body: bytes, contentType: "application/json"))
    }

    private func send(_ request: HTTPClientRequest) async throws -> Answer {
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return Answer(
            status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"),
            body: Data(bytes.readableBytesView))
    }

    /// Opens `/v1/events` and returns a reader of its events once the `ready` event arrived.
    func openEvents() async throws -> ServerSentEvents {
        let events = ServerSentEvents(client: client, request: request("GET", "/v1/events"))
        let ready = try await events.next(named: "ready")
        guard ready["active_container"]?["uuid"]?.string != nil else { throw DocumentError("a ready event without its container: \(ready)") }
        return events
    }
}

/// The events of one `/v1/events` stream, read in a task of their own so that the test can drop the
/// connection (``close()``) as a client going away would.
final class ServerSentEvents {
    /// One event: its name and its data parsed as JSON.
    struct Event {
        let name: String
        let data: JSONValue
    }

    private let reader: Task<Void, Never>
    private var iterator: AsyncThrowingStream<Event, any Error>.AsyncIterator
    /// The names of the events read so far, in order.
    private(set) var seen: [String] = []

    init(client: HTTPClient, request: HTTPClientRequest) {
        let (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        let task = Task { await ServerSentEvents.read(client: client, request: request, into: continuation) }
        iterator = stream.makeAsyncIterator()
        reader = task
    }

    /// Sends the request and feeds each event of the answer to `continuation`.
    private static func read(
        client: HTTPClient, request: HTTPClientRequest, into continuation: AsyncThrowingStream<Event, any Error>.Continuation
    ) async {
        do {
            // The deadline only turns a missing event into a failure instead of a hang.
            let response = try await client.execute(request, timeout: .seconds(60))
            guard response.status == .ok, response.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true else {
                throw DocumentError("GET /v1/events answered \(response.status) \(response.headers)")
            }
            // Bytes, not text: a buffer may end inside a UTF-8 sequence.
            var pending: [UInt8] = []
            for try await buffer in response.body {
                pending += buffer.readableBytesView
                while let end = frameEnd(in: pending) {
                    let frame = String(decoding: pending[..<end], as: UTF8.self)
                    pending.removeFirst(end + 2)
                    var name = "message"
                    var data = ""
                    for line in frame.split(separator: "\n", omittingEmptySubsequences: false) {
                        if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                        if line.hasPrefix("data: ") { data += line.dropFirst(6) }
                    }
                    if data.isEmpty { continue } // a keep-alive comment
                    continuation.yield(Event(name: name, data: try JSONValue.parse(Data(data.utf8))))
                }
            }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }

    /// Where the first blank line (`\n\n`) ending an event starts.
    private static func frameEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        return (0..<(bytes.count - 1)).first { bytes[$0] == 0x0A && bytes[$0 + 1] == 0x0A }
    }

    /// The next event named `name`, skipping others; throws if the stream ends first.
    func next(named name: String) async throws -> JSONValue {
        try await next { $0.name == name }.data
    }

    /// The next event that `matches`, skipping others; throws if the stream ends first.
    func next(where matches: (Event) -> Bool) async throws -> Event {
        while let event = try await iterator.next() {
            seen.append(event.name)
            if matches(event) { return event }
        }
        throw DocumentError("the event stream ended; events seen: \(seen)")
    }

    /// Drops the connection.
    func close() {
        reader.cancel()
    }

    deinit { reader.cancel() }
}
