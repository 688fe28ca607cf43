@testable import EnvScript
import Foundation
import LuaBridge
import TestSupport
import Testing

/// Closing an attached host from async code while its control server has a request under way.
///
/// Hummingbird starts its graceful shutdown in a task of Swift's cooperative pool, so `close()` called
/// from a task must not block that task's thread until the server has stopped (a few hosts closed at
/// once would each wait out the shutdown's timeout, pool-width hosts at a time). It returns; the server
/// finishes in the background, and what it had not handed to the host yet is refused, not lost.
@Suite(.timeLimit(.minutes(10))) struct HostCloseTests {
    @Test func closingFromATaskLeavesTheServerToFinishAndRefusesWhatComesLate() async throws {
        // The half-sent request must outlast a loaded machine's pauses, not the server's timeouts.
        let fixture = try HostFixture {
            $0.controlServerLimits.requestTimeout = .seconds(600)
            $0.controlServerLimits.idleTimeout = .seconds(600)
        }
        let socketPath = try #require(fixture.host.attachedHostRecord?.socketPath)
        let body = #"{"value": "red"}"#
        let connection = try RawSocketConnection(path: socketPath)
        // The request's head and half its body: the server holds it as under way until the rest comes.
        try connection.send(
            "PUT /v1/tweaks/checkout/color HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body.prefix(6))
        // Once the server has read what was sent, its HTTP decoder has counted the request as under
        // way (the same event-loop turn), before any shutdown reaches the connection; this stays so
        // until more is sent.
        try await waitUntil("the server has read the request's head", timeout: .seconds(120)) { connection.isAllSentReadByPeer }

        let host = fixture.host
        try await Task.detached { host.close() }.value
        // close() returned while the server still waits for the request: it did not wait for the
        // server to stop, which cannot happen before the request ends or the shutdown times out.
        #expect(!connection.isClosedByPeer, "close() waited for the server to stop")
        #expect(!FileManager.default.fileExists(atPath: socketPath), "the closed host's socket is still there")
        #expect(host.closing.withLock { $0 })

        try connection.send(String(body.dropFirst(6)))
        let answer = try await onAnotherThread { connection.readToEnd(timeout: 20) }
        #expect(answer.hasPrefix("HTTP/1.1 500"), "answered: \(answer)")
        #expect(answer.contains("the host has closed"), "answered: \(answer)")
        // The server then stops: the connection ends (readToEnd returned at its end, not its timeout).
        #expect(connection.isClosedByPeer, "the server kept the connection after answering while stopping")

        // Nothing the late request carried reached the home.
        let reopened = try EnvScriptHost(configuration: HostConfiguration(
            home: fixture.folder.appendingPathComponent("home"), appID: "tests",
            lua: LuaOptions(scriptRoots: [fixture.folder.path]), attachesToHome: false))
        defer { reopened.close() }
        #expect(reopened.tweaks.value("checkout", "color", default: "none") == "none")
    }
}
