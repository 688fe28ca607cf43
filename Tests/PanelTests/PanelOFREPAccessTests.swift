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
}
