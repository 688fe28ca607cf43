import EnvScript
import EnvScriptPanel
import Foundation
import Testing
import TestSupport

/// What a local user without the token can hold of a panel, with real TCP connections: past the cap the
/// oldest connection without the token is closed, a connection that sends nothing, or its request a
/// byte at a time, is closed, and the panel still answers the owner at once.
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

    /// The security review's floods: 1,100 idle connections held the owner out for 135 s, 70 that
    /// trickled their heads 22 s. Connections without the token are the first closed past the cap and
    /// are closed within `unprovenTimeout` anyway: the owner is answered at once under both.
    @Test(arguments: [false, true])
    func connectionsWithoutTheTokenNeverHoldTheOwnerOut(_ trickling: Bool) async throws {
        try await withPanel { panel in
            let flood = try (0..<(trickling ? 70 : 300)).map { _ in try RawSocketConnection(port: panel.panel.port) }
            if trickling {
                for connection in flood { try? connection.send("GET /v1/containers HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a") }
            }
            let clock = ContinuousClock()
            let started = clock.now
            let answer = try await panel.send("GET", "/v1/containers", credential: .bearer(panel.panel.access.token))
            #expect(answer.status == 200, "\(answer)")
            // Without the registry the 300 idle connections hold it about 75 s (a cap of 4, each closed
            // after its idle second). Within 2 s on a quiet machine (the figure is in the issue's note);
            // 10 here, for a CI machine running the whole suite on two cores.
            #expect(started.duration(to: clock.now) < .seconds(10))
            // More of them after the owner's: the owner's connection is kept, and answers again.
            let more = try (0..<20).map { _ in try RawSocketConnection(port: panel.panel.port) }
            let again = try await panel.send("GET", "/v1/containers", credential: .bearer(panel.panel.access.token))
            #expect(again.status == 200, "\(again)")
            try await waitUntil("every connection without the token is closed", timeout: .seconds(20)) {
                (flood + more).allSatisfy(\.isClosedByPeer)
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
