import AsyncHTTPClient
import EnvScript
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// A host's opt-in OFREP listener (`HostConfiguration.ofrepListener`): OpenFeature SDKs on this machine,
/// other machines of a fleet or browsers of allowed origins evaluate the host's flags over TCP with a
/// bearer token, and reach nothing else of the host.
@Suite(.timeLimit(.minutes(5))) struct OFREPListenerTests {
    static let token = OFREPListener.randomToken()
    static let page = "http://localhost:5173"
    static let bulk = "/ofrep/v1/evaluate/flags"
    static let context = #"{"context": {"targetingKey": "user-1"}}"#

    struct Answer: CustomStringConvertible {
        let status: Int
        let headers: HTTPHeaders
        let text: String
        var description: String { "\(status) \(text)" }
    }

    /// A host serving `listener` (the fixture's token and allowed origin unless given), with a flag.
    ///
    /// The fixture's own listener gives a connection two minutes to show the token, not 5 s: the tests
    /// send tokenless requests, and the shared client reuses their connections, which on a machine
    /// loaded by the whole suite the listener would otherwise close under a later request (a reset,
    /// not an answer). The test of that timeout passes a listener of its own.
    private static func withListener(
        _ listener: OFREPListener? = nil, _ body: (HostFixture, Int) async throws -> Void
    ) async throws {
        let fixture = try HostFixture(attaches: false) { configuration in
            configuration.ofrepListener = try? listener ?? OFREPListener(
                token: token, allowedOrigins: AllowedOrigins([page]), limits: ServerLimits(unprovenTimeout: .seconds(120)))
        }
        try fixture.run("tweak.set('checkout', 'banner', 'shown')")
        let port = try #require(fixture.host.ofrepListenerPort)
        try await body(fixture, port)
    }

    private static func send(
        _ method: String, _ path: String, port: Int, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)" + path)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, text: String(buffer: bytes))
    }

    private static var bearer: (String, String) { ("Authorization", "Bearer \(token)") }

    @Test func aClientWithTheTokenEvaluatesTheHostsFlagsAndPollsWithItsETag() async throws {
        try await Self.withListener { fixture, port in
            let one = try await Self.send("POST", Self.bulk + "/checkout.banner", port: port, headers: [Self.bearer], body: Self.context)
            #expect(one.status == 200, "\(one)")
            #expect(one.text.contains(#""value":"shown""#), "\(one)")
            let all = try await Self.send("POST", Self.bulk, port: port, headers: [Self.bearer], body: Self.context)
            let tag = try #require(all.headers.first(name: "ETag"), "\(all)")
            let unchanged = try await Self.send("POST", Self.bulk, port: port, headers: [Self.bearer, ("If-None-Match", tag)], body: Self.context)
            #expect(unchanged.status == 304)
            // A change made by the app is seen at the next poll.
            try fixture.run("tweak.set('checkout', 'banner', 'hidden')")
            let changed = try await Self.send("POST", Self.bulk, port: port, headers: [Self.bearer, ("If-None-Match", tag)], body: Self.context)
            #expect(changed.status == 200)
            #expect(changed.text.contains(#""value":"hidden""#), "\(changed)")
        }
    }

    @Test func withoutTheTokenItIs401AndNothingButOFREPIsServed() async throws {
        try await Self.withListener { _, port in
            for headers in [[], [("Authorization", "Bearer " + String(repeating: "0", count: 64))], [("Authorization", "Basic \(Self.token)")]] {
                let refused = try await Self.send("POST", Self.bulk, port: port, headers: headers, body: Self.context)
                #expect(refused.status == 401, "\(headers): \(refused)")
                #expect(refused.headers.first(name: "WWW-Authenticate") == "Bearer")
                #expect(refused.text.hasPrefix(#"{"errorDetails":"#))
            }
            let lowerCase = try await Self.send("POST", Self.bulk, port: port, headers: [("Authorization", "bearer \(Self.token)")], body: Self.context)
            #expect(lowerCase.status == 200)
            // The control API is not there, with the token or without.
            for (method, path) in [("GET", "/v1/containers"), ("POST", "/v1/containers/B/activate"), ("GET", "/")] {
                let absent = try await Self.send(method, path, port: port, headers: [Self.bearer])
                #expect(absent.status == 404, "\(method) \(path): \(absent)")
                #expect(absent.text.contains("serves OFREP only"), "\(absent)")
            }
            let wrongMethod = try await Self.send("GET", Self.bulk, port: port, headers: [Self.bearer])
            #expect([404, 405].contains(wrongMethod.status), "\(wrongMethod)")
        }
    }

    @Test func aPageOfAnAllowedOriginIsAnsweredByCORSRulesAndOthersAreRefused() async throws {
        try await Self.withListener { _, port in
            let preflight = try await Self.send("OPTIONS", Self.bulk, port: port, headers: [
                ("Origin", Self.page), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "authorization,content-type,if-none-match"),
            ])
            #expect(preflight.status == 204, "\(preflight)")
            #expect(preflight.headers.first(name: "Access-Control-Allow-Origin") == Self.page)
            #expect(preflight.headers.first(name: "Access-Control-Allow-Headers")?.contains("If-None-Match") == true)
            let answered = try await Self.send(
                "POST", Self.bulk, port: port, headers: [("Origin", Self.page), Self.bearer], body: Self.context)
            #expect(answered.status == 200, "\(answered)")
            #expect(answered.headers.first(name: "Access-Control-Expose-Headers") == "ETag")
            // An allowed origin still needs the token; the refusal is readable by the page.
            let tokenless = try await Self.send("POST", Self.bulk, port: port, headers: [("Origin", Self.page)], body: Self.context)
            #expect(tokenless.status == 401)
            #expect(tokenless.headers.first(name: "Access-Control-Allow-Origin") == Self.page)
            // A path the listener does not serve is answered readably to the page too.
            let elsewhere = try await Self.send("POST", "/v1/containers", port: port, headers: [("Origin", Self.page), Self.bearer])
            #expect(elsewhere.status == 404, "\(elsewhere)")
            #expect(elsewhere.headers.first(name: "Access-Control-Allow-Origin") == Self.page)
            for stranger in ["http://evil.example", "http://localhost:5174", "null"] {
                let refused = try await Self.send(
                    "POST", Self.bulk, port: port, headers: [("Origin", stranger), Self.bearer], body: Self.context)
                #expect(refused.status == 403, "\(stranger): \(refused)")
                #expect(refused.headers.first(name: "Access-Control-Allow-Origin") == nil)
            }
        }
    }

    /// Anybody who can reach the port may connect: a connection that has not shown the token within
    /// the unproven timeout is closed, and past the cap the oldest of those goes first, so a client
    /// with the token is answered however many others hold connections open.
    @Test func connectionsWithoutTheTokenDoNotHoldClientsOut() async throws {
        let limits = ServerLimits(maximumConnections: 4, unprovenTimeout: .milliseconds(500))
        let listener = OFREPListener(token: Self.token, limits: limits)
        try await Self.withListener(listener) { _, port in
            let idle = try (0..<12).map { _ in try RawSocketConnection(port: port) }
            let answered = try await Self.send("POST", Self.bulk, port: port, headers: [Self.bearer], body: Self.context)
            #expect(answered.status == 200)
            try await Task.sleep(for: .seconds(2))
            let open = idle.filter { !$0.isClosedByPeer }.count
            #expect(open == 0, "\(open) connections without the token are still open")
        }
    }

    @Test func aListenerThatCannotBeServedSafelyIsRefusedByName() throws {
        for (listener, words) in [
            (OFREPListener(token: "short"), "at least 16"),
            (OFREPListener(port: 70_000, token: Self.token), "between 0 and 65535"),
            (OFREPListener(token: "a token with spaces"), "spaces"),
        ] {
            #expect {
                _ = try HostFixture(attaches: false) { $0.ofrepListener = listener }
            } throws: { error in
                guard case .ofrepListenerFailed(_, let reason)? = (error as? HostError)?.reason else { return false }
                return reason.contains(words)
            }
        }
        // A port already taken: the host does not open, and says where.
        let first = try HostFixture(attaches: false) { $0.ofrepListener = OFREPListener(token: Self.token) }
        let taken = try #require(first.host.ofrepListenerPort)
        #expect {
            _ = try HostFixture(attaches: false) { $0.ofrepListener = OFREPListener(port: taken, token: Self.token) }
        } throws: { error in
            "\(error)".contains("127.0.0.1:\(taken)")
        }
    }

    @Test func closingTheHostClosesTheListener() async throws {
        let fixture = try HostFixture(attaches: false) { $0.ofrepListener = OFREPListener(token: Self.token) }
        let port = try #require(fixture.host.ofrepListenerPort)
        fixture.host.close()
        #expect(fixture.host.ofrepListenerPort == nil)
        // From async code the server finishes stopping in the background.
        try await waitUntil("the port is closed", timeout: .seconds(10)) { (try? RawSocketConnection(port: port)) == nil }
    }

    @Test func anOriginIsReadAsOneAndOnlyOne() throws {
        #expect(try AllowedOrigins(["http://localhost:5173"]).origins == ["http://localhost:5173"])
        #expect(try AllowedOrigins(["HTTPS://App.Example.com:443/"]).origins == ["https://app.example.com"])
        #expect(try AllowedOrigins(["http://[::1]:8080"]).origins == ["http://[::1]:8080"])
        #expect(try AllowedOrigins(["https://app.example.com"]).allows("https://APP.example.com:443"))
        for wrong in ["ftp://x.example", "http://x.example/path", "localhost:5173", "http://u@x.example", "http://x.example?q=1", "*"] {
            #expect(throws: HostError.invalidOrigin(wrong)) { try AllowedOrigins([wrong]) }
        }
    }
}
