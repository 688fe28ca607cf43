import EnvScript
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The panel of a tool (`envscript ui`) shows the application attached to its home — a real process —
/// while there is one, and the home otherwise; an application's own panel shows that application.
@Suite(.timeLimit(.minutes(10))) struct PanelFollowingTests {
    /// An application in a process of its own, attached to `home`, with a piece of state in memory
    /// that only it has.
    private func startApplication(home: URL, in folder: URL) throws -> ChildProcess {
        let appFolder = folder.appendingPathComponent("app-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: appFolder, withIntermediateDirectories: true)
        let script = appFolder.appendingPathComponent("app.lua")
        try "state.memory('cart.count', 3)".write(to: script, atomically: true, encoding: .utf8)
        let process = try ChildProcess(
            try BuiltBinary.url(named: "AttachedHostHelper"), [home.path, script.path, appFolder.path],
            in: folder, environment: ProcessInfo.processInfo.environment)
        ChildProcess.waitForFile(appFolder.appendingPathComponent("ready").path)
        return process
    }

    private func stateKeys(_ fixture: PanelFixture) async throws -> [String: Any] {
        let state = try await fixture.json("/v1/state")["state"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: state.compactMap { entry in (entry["key"] as? String).map { ($0, entry["value"] ?? NSNull()) } })
    }

    @Test func whileAnApplicationIsAttachedThePanelShowsItAndOtherwiseTheHome() async throws {
        let fixture = try PanelFixture(followsApplication: true)
        let token = fixture.panel.access.token
        let alone = try await fixture.json("/v1/panel")
        #expect((alone["shows"] as? [String: Any])?["kind"] as? String == "home")
        #expect(alone["home"] as? String == fixture.home.path)
        #expect(try await stateKeys(fixture)["cart.count"] == nil)

        let application = try startApplication(home: fixture.home, in: fixture.folder.url)
        let shown = try #require(try await fixture.json("/v1/panel")["shows"] as? [String: Any])
        #expect(shown["kind"] as? String == "application")
        #expect(shown["pid"] as? Int == Int(application.pid))
        #expect(shown["program"] as? String == "AttachedHostHelper")
        // The application's state in memory, read and written through the panel.
        #expect(try await stateKeys(fixture)["cart.count"] as? Int == 3)
        let events = try await fixture.events()
        #expect(try await events.waitFor("event: ready"))
        let write = try await fixture.send("PUT", "/v1/state/cart.count", credential: .bearer(token), body: #"{"value": 5}"#)
        #expect(write.status == 200, "\(write)")
        #expect(try await events.waitFor(#""value":5"#), "the change arrives on the forwarded stream: \(events.received)")
        #expect(try await stateKeys(fixture)["cart.count"] as? Int == 5)
        #expect(!fixture.host.application.declaredKeys.contains("cart.count"), "the panel's own host never had the key")

        // An OFREP client polling through the panel gets the application's ETag, and 304 while
        // nothing changes.
        let bulk = try await fixture.send(
            "POST", "/ofrep/v1/evaluate/flags", credential: .bearer(token), body: #"{"context": {}}"#)
        #expect(bulk.status == 200, "\(bulk)")
        let tag = try #require(bulk.headers.first(name: "ETag"), "the ETag was dropped: \(bulk.headers)")
        let unchanged = try await fixture.send(
            "POST", "/ofrep/v1/evaluate/flags", credential: .bearer(token), headers: [("If-None-Match", tag)], body: #"{"context": {}}"#)
        #expect(unchanged.status == 304, "\(unchanged)")

        // The application dies: its stream ends, and the panel shows the home again.
        application.send(SIGKILL)
        _ = application.wait()
        #expect(try await events.waitFor("never sent") == false)
        #expect((try await fixture.json("/v1/panel")["shows"] as? [String: Any])?["kind"] as? String == "home")
        #expect(try await stateKeys(fixture)["cart.count"] == nil)
        await fixture.close()
    }

    @Test func aStreamFromTheHomeEndsWhenAnApplicationAttachesSoThePageReconnectsToIt() async throws {
        let fixture = try PanelFixture(followsApplication: true)
        let events = try await fixture.events()
        #expect(try await events.waitFor("event: ready"))
        let application = try startApplication(home: fixture.home, in: fixture.folder.url)
        #expect(try await events.waitFor("never sent") == false, "the home's stream ends: \(events.received)")
        let again = try await fixture.events()
        #expect(try await again.waitFor("event: ready"))
        application.send(SIGKILL)
        _ = application.wait()
        #expect(try await again.waitFor("never sent") == false)
        await fixture.close()
    }

    @Test func anApplicationsOwnPanelShowsThatApplicationEvenBesideAnother() async throws {
        let fixture = try PanelFixture()
        let other = try startApplication(home: fixture.home, in: fixture.folder.url)
        let shown = try #require(try await fixture.json("/v1/panel")["shows"] as? [String: Any])
        #expect(shown["pid"] as? Int == Int(getpid()))
        #expect(try await stateKeys(fixture)["cart.count"] == nil, "the other application's state is not this one's")
        other.send(SIGKILL)
        _ = other.wait()
        await fixture.close()
    }
}
