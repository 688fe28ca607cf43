import EnvScript
import EnvScriptPanel
import Foundation
import Testing
import TestSupport

/// OFREP through the panel as OFREP's document has it: credentials missing or wrong are 401 with
/// `WWW-Authenticate: Bearer` (not the panel's 403), the bearer scheme is read in any case, and the
/// panel's own refusals (another Host) stay 403.
@Suite(.timeLimit(.minutes(10))) struct PanelOFREPAccessTests {
    static let path = "/ofrep/v1/evaluate/flags"
    static let body = #"{"context": {"targetingKey": "u1"}}"#

    @Test func missingOrWrongCredentialsAre401AndTheSchemeIsReadInAnyCase() async throws {
        try await PanelFixture.with { panel in
            for credential in [PanelFixture.Credential.none, .bearer(String(repeating: "0", count: 64))] {
                let refused = try await panel.send("POST", Self.path, credential: credential, body: Self.body)
                #expect(refused.status == 401, "\(refused)")
                #expect(refused.headers.first(name: "WWW-Authenticate") == "Bearer")
                #expect(refused.text.contains("errorDetails"))
            }
            for scheme in ["bearer", "BEARER", "Bearer"] {
                let answered = try await panel.send(
                    "POST", Self.path, headers: [("Authorization", "\(scheme) \(panel.panel.access.token)")], body: Self.body)
                #expect(answered.status == 200, "\(scheme): \(answered)")
            }
            let elsewhere = try await panel.send(
                "POST", Self.path, credential: .bearer(panel.panel.access.token), headers: [("Host", "evil.example")], body: Self.body)
            #expect(elsewhere.status == 403, "\(elsewhere)")
        }
    }

    /// A browser's OFREP provider on a page of another origin (a dev server on localhost:5173): its
    /// preflight is answered for an allowed origin only, its requests need the bearer token (the
    /// cookie grants nothing), and the page may read the answer and its ETag. Nothing but OFREP opens.
    @Test func anAllowedOriginsPageMayCallOFREPWithTheTokenAndNothingElse() async throws {
        let page = "http://localhost:5173"
        try await PanelFixture.with(allowedOrigins: try AllowedOrigins([page])) { panel in
            let token = panel.panel.access.token
            let preflight = try await panel.send("OPTIONS", Self.path, headers: [
                ("Origin", page), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "authorization,content-type,if-none-match"),
            ])
            #expect(preflight.status == 204, "\(preflight)")
            #expect(preflight.headers.first(name: "Access-Control-Allow-Origin") == page)
            #expect(preflight.headers.first(name: "Access-Control-Allow-Headers")?.contains("Authorization") == true)
            let stranger = try await panel.send("OPTIONS", Self.path, headers: [
                ("Origin", "http://evil.example"), ("Access-Control-Request-Method", "POST"),
            ])
            #expect(stranger.status == 403, "\(stranger)")
            #expect(stranger.headers.first(name: "Access-Control-Allow-Origin") == nil)

            let answered = try await panel.send(
                "POST", Self.path, credential: .bearer(token), headers: [("Origin", page)], body: Self.body)
            #expect(answered.status == 200, "\(answered)")
            #expect(answered.headers.first(name: "Access-Control-Allow-Origin") == page)
            #expect(answered.headers.first(name: "Access-Control-Expose-Headers") == "ETag")
            #expect(answered.headers.first(name: "ETag") != nil)
            let withCookie = try await panel.send(
                "POST", Self.path, credential: .cookie(token), headers: [("Origin", page)], body: Self.body)
            #expect(withCookie.status == 401, "\(withCookie)")
            let api = try await panel.send("GET", "/v1/containers", credential: .bearer(token), headers: [("Origin", page)])
            #expect(api.status == 403, "\(api)")
        }
    }
}
