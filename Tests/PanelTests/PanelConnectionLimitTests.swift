import EnvScript
import EnvScriptPanel
import Foundation
import Testing
import TestSupport

/// What a local user without the token can hold of a panel, with real TCP connections: a connection
/// that sends nothing, or its request a byte at a time, is closed, and the panel still answers a real
/// request. (The floods of the security review run against `envscript ui` in a process of its own:
/// CLITests' PanelFloodTests.)
@Suite(.timeLimit(.minutes(10))) struct PanelConnectionLimitTests {
    /// A cap of 4 and timeouts short enough for a test.
    private static let limits = ServerLimits(maximumConnections: 4, idleTimeout: .seconds(1), requestTimeout: .seconds(2))

    private func withPanel(_ body: (PanelFixture) async throws -> Void) async throws {
        try await PanelFixture.with(limits: Self.limits, body)
    }

    @Test func idleConnectionsPastTheCapAreClosedInTurnAndARealRequestIsServed() async throws {
        try await withPanel { panel in
            // Three times the cap: the ones past it wait in the queue of pending connections.
            let idle = try (0..<12).map { _ in try RawSocketConnection(port: panel.panel.port) }
            let answer = try await panel.send("GET", "/v1/containers", credential: .bearer(panel.panel.access.token))
            #expect(answer.status == 200, "\(answer)")
            try await waitUntil("the server closed every idle connection", timeout: .seconds(20)) {
                idle.allSatisfy(\.isClosedByPeer)
            }
        }
    }

    @Test func aRequestHeadSentAByteAtATimeIsClosedAfterTheIdleTimeout() async throws {
        try await withPanel { panel in
            let slow = try RawSocketConnection(port: panel.panel.port)
            try slow.send("GET /v1/containers HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            // Keeps sending, never ending the head: activity that is not a request.
            let closedAfter = try await slow.dripUntilClosed(for: .seconds(10))
            #expect(closedAfter != nil, "a head that never ends kept its connection for 10 s")
            #expect(closedAfter.map { $0 >= .milliseconds(500) } ?? true, "closed before the idle timeout")
        }
    }

    @Test func aRequestBodySentAByteAtATimeIsClosedAfterTheRequestTimeout() async throws {
        try await withPanel { panel in
            let slow = try RawSocketConnection(port: panel.panel.port)
            try slow.send("""
                POST /v1/containers HTTP/1.1\r
                Host: 127.0.0.1:\(panel.panel.port)\r
                Authorization: Bearer \(panel.panel.access.token)\r
                Content-Type: application/json\r
                Content-Length: 1000\r
                \r
                {"name": "
                """)
            let closedAfter = try await slow.dripUntilClosed(for: .seconds(10))
            #expect(closedAfter != nil, "a body sent a byte every 200 ms kept its connection for 10 s")
            #expect(closedAfter.map { $0 >= .seconds(1) } ?? true, "closed before the request timeout")
            #expect(try panel.containerNames() == ["DEFAULT"])
        }
    }

    @Test func aRequestUnderWayIsNotCutByTheIdleTimeout() async throws {
        try await withPanel { panel in
            let events = try await panel.events()
            #expect(try await events.waitFor("event: ready"))
            try await Task.sleep(for: .seconds(2))
            // Still open: a change made now arrives on it.
            let created = try await panel.send(
                "POST", "/v1/containers", credential: .bearer(panel.panel.access.token), body: #"{"name": "Later"}"#)
            #expect(created.status == 201, "\(created)")
            #expect(try await events.waitFor("event: containers"))
        }
    }
}
