import EnvScript
import EnvScriptPanel
import Foundation
import Glibc
import Testing
import TestSupport

/// The panel's security rules, against a real server on 127.0.0.1: without the token, with a wrong
/// one, from a foreign Host or Origin, every request is answered 403 and nothing changes.
@Suite(.timeLimit(.minutes(10))) struct PanelAccessTests {
    private func withPanel(_ body: (PanelFixture) async throws -> Void) async throws {
        try await PanelFixture.with(body)
    }

    private let create = #"{"name": "Intruder"}"#

    @Test func withoutATokenNothingIsServedAndNothingChanges() async throws {
        try await withPanel { panel in
            let page = try await panel.send("GET", "/")
            #expect(page.status == 403)
            let list = try await panel.send("GET", "/v1/containers")
            #expect(list.status == 403)
            let refused = try await panel.send("POST", "/v1/containers", body: create)
            #expect(refused.status == 403)
            #expect(refused.text.contains("token"))
            // Under /v1 the refusal is the control API's own error answer.
            let body = try JSONDecoder().decode(ControlErrorBody.self, from: Data(refused.text.utf8))
            #expect(body.error.code == .forbidden)
            #expect(try panel.containerNames() == ["DEFAULT"])
        }
    }

    @Test func aWrongTokenIsRefusedHoweverItComes() async throws {
        try await withPanel { panel in
            let wrong = String(panel.panel.access.token.reversed())
            let withBearer = try await panel.send("POST", "/v1/containers", credential: .bearer(wrong), body: create)
            #expect(withBearer.status == 403)
            let withCookie = try await panel.send("POST", "/v1/containers", credential: .cookie(wrong),
                                         headers: [("Origin", panel.base)], body: create)
            #expect(withCookie.status == 403)
            let withTokenAddress = try await panel.send("GET", "/?token=\(wrong)")
            #expect(withTokenAddress.status == 403)
            let withTruncatedToken = try await panel.send("GET", "/v1/containers", credential: .bearer(String(panel.panel.access.token.dropLast())))
            #expect(withTruncatedToken.status == 403)
            #expect(try panel.containerNames() == ["DEFAULT"])
        }
    }

    @Test func aForeignHostIsRefusedEvenWithTheToken() async throws {
        try await withPanel { panel in
            let token = panel.panel.access.token
            // A page of evil.example whose name was rebound to 127.0.0.1 reaches the panel under its own name.
            let answer = try await panel.send("POST", "/v1/containers", credential: .bearer(token),
                                              headers: [("Host", "evil.example:\(panel.panel.port)")], body: create)
            #expect(answer.status == 403)
            #expect(answer.text.contains("Host"))
            let otherPort = try await panel.send("GET", "/", credential: .bearer(token), headers: [("Host", "127.0.0.1:1")])
            #expect(otherPort.status == 403)
            #expect(try panel.containerNames() == ["DEFAULT"])
        }
    }

    @Test func aForeignOriginIsRefusedEvenWithTheToken() async throws {
        try await withPanel { panel in
            let token = panel.panel.access.token
            for origin in ["http://evil.example", "https://127.0.0.1:\(panel.panel.port)", "null"] {
                let answer = try await panel.send("POST", "/v1/containers", credential: .cookie(token),
                                                  headers: [("Origin", origin)], body: create)
                #expect(answer.status == 403, "Origin \(origin)")
                let deleteAll = try await panel.send("DELETE", "/v1/tweaks/overrides", credential: .bearer(token),
                                             headers: [("Origin", origin)])
                #expect(deleteAll.status == 403)
            }
            #expect(try panel.containerNames() == ["DEFAULT"])
        }
    }

    @Test func aChangeMadeWithTheCookieMustNameItsOrigin() async throws {
        try await withPanel { panel in
            let token = panel.panel.access.token
            // A form posted from another site carries the cookie (were SameSite ignored) but the browser
            // names that site as Origin; with no Origin at all the change is refused too.
            let withoutOrigin = try await panel.send("POST", "/v1/containers", credential: .cookie(token), body: create)
            #expect(withoutOrigin.status == 403)
            #expect(try panel.containerNames() == ["DEFAULT"])
            let allowed = try await panel.send("POST", "/v1/containers", credential: .cookie(token),
                                               headers: [("Origin", panel.base)], body: create)
            #expect(allowed.status == 201, "\(allowed)")
            #expect(try panel.containerNames() == ["DEFAULT", "Intruder"])
        }
    }

    @Test func theTokenAddressSetsAStrictHttpOnlyCookieAndLeavesTheAddressBar() async throws {
        try await withPanel { panel in
            let token = panel.panel.access.token
            #expect(panel.panel.url.absoluteString == "http://127.0.0.1:\(panel.panel.port)/?token=\(token)")
            let visit = try await panel.send("GET", "/?token=\(token)")
            #expect(visit.status == 303)
            #expect(visit.headers["Location"] == ["/"])
            let cookie = try #require(visit.headers["Set-Cookie"].first)
            #expect(cookie.hasPrefix("envscript_panel=\(token)"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let page = try await panel.send("GET", "/", credential: .cookie(token))
            #expect(page.status == 200)
            #expect(page.text.contains("<title>EnvScript panel</title>"))
            #expect(page.headers["Content-Security-Policy"].first?.contains("default-src 'self'") == true)
            #expect(page.headers["Referrer-Policy"] == ["no-referrer"])
            let script = try await panel.send("GET", "/panel.js", credential: .cookie(token))
            #expect(script.status == 200 && script.text.contains("EventSource"))
        }
    }

    @Test func itListensOnlyOnTheLoopbackAddressItNamed() async throws {
        try await withPanel { panel in
            // 127.0.0.2 is on the loopback interface too, but the panel is bound to 127.0.0.1 alone.
            #expect(connectionError(to: "127.0.0.2", port: panel.panel.port) == ECONNREFUSED)
            #expect(connectionError(to: "127.0.0.1", port: panel.panel.port) == 0)
        }
    }

    /// The `errno` of a TCP connection attempt to `address:port`, 0 when it connects.
    private func connectionError(to address: String, port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &target.sin_addr)
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0 ? 0 : errno
    }

    @Test func stoppingOnePanelEndsItsEventStreamsAndLeavesTheHostsOthersOpen() async throws {
        try await withPanel { fixture in
            let other = try fixture.host.servePanel()
            let first = try await PanelEventStream(client: fixture.client, port: fixture.panel.port, token: fixture.panel.access.token)
            let second = try await PanelEventStream(client: fixture.client, port: other.port, token: other.access.token)
            #expect(try await first.waitFor("event: ready"))
            #expect(try await second.waitFor("event: ready"))
            let panel = fixture.panel
            _ = try await onAnotherThread { panel.stop() }
            #expect(try await first.waitFor("event: tweak") == false, "the stopped panel's stream ended")
            try fixture.host.tweaks.set(.string("red"), feature: "checkout", variable: "color")
            #expect(try await second.waitFor("event: tweak"), "the other panel's stream goes on")
            _ = try await onAnotherThread { other.stop() }
        }
    }

    @Test func aTakenPortIsAClearError() async throws {
        try await withPanel { panel in
            let error = #expect(throws: HostError.self) { _ = try panel.host.servePanel(port: panel.panel.port) }
            #expect(error?.code == .panelListenerFailed)
            #expect(error?.description.contains("127.0.0.1:\(panel.panel.port)") == true)
        }
    }
}
