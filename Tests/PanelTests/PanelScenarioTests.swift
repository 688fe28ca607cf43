import EnvScript
import EnvScriptPanel
import Foundation
import Locking
import Testing
import TestSupport

/// The Scenarios page's routes against a real panel: listing, runs whose results arrive on the event
/// stream as each test ends, one run at a time, and clear errors for bad requests.
@Suite(.timeLimit(.minutes(10))) struct PanelScenarioTests {
    static let files = [
        "math_spec.lua": """
            describe('math', function()
              it('adds', function() assert.equals(4, 2 + 2) end)
              it('multiplies', function() assert.equals(6, 2 * 3) end)
              it('is wrong here', function() assert.equals(5, 2 + 2) end)
            end)
            """,
        "nested/state_spec.lua": """
            describe('state', function()
              it('starts from a fresh home', function()
                assert.equals(0, #container.list() - 1)
              end)
            end)
            """,
    ]

    @Test func listsTheFolderAndRunsAFileWithEachResultOnTheStream() async throws {
        let fixture = try PanelFixture(scenarios: Self.files)
        let token = fixture.panel.access.token
        do {
            let listing = try await fixture.send("GET", "/v1/scenarios", credential: .bearer(token))
            #expect(listing.status == 200)
            #expect(listing.text.contains(#""files":["math_spec.lua","nested/state_spec.lua"]"#), "\(listing)")
            #expect(listing.text.contains(#""run":null"#))

            let events = try await fixture.events("/v1/scenarios/events")
            #expect(try await events.waitFor(#"data: {"run":null}"#))
            let started = try await fixture.send(
                "POST", "/v1/scenarios/runs", credential: .bearer(token), body: #"{"files": ["math_spec.lua"]}"#)
            #expect(started.status == 202, "\(started)")
            #expect(started.text == #"{"run":1}"#)
            #expect(try await events.waitFor(#""phase":"finished""#))
            // The finished event may arrive in pieces: its summary comes last.
            #expect(try await events.waitFor(#""line":"2 passed, 1 failed""#))
            // Each test's result came on its own, before the run's end.
            let text = events.received
            let results = text.components(separatedBy: "event: result\n").count - 1
            #expect(results == 3, "\(text)")
            let lastResult = try #require(text.range(of: "event: result", options: .backwards))
            let end = try #require(text.range(of: #""phase":"finished""#))
            #expect(lastResult.lowerBound < end.lowerBound)
            #expect(text.contains(#""line":"2 passed, 1 failed""#))
            #expect(text.contains(#""name":"math is wrong here","outcome":"failed""#))
            #expect(text.contains("math_spec.lua:4"), "the failure names the file and line: \(text)")

            let after = try await fixture.send("GET", "/v1/scenarios", credential: .bearer(token))
            #expect(after.text.contains(#""phase":"finished""#) && after.text.contains(#""id":1"#))
            // The run had its own home: the panel's host still has only DEFAULT.
            #expect(try fixture.containerNames() == ["DEFAULT"])
        } catch {
            Issue.record(error)
        }
        await fixture.close()
    }

    @Test func everyFileRunsWhenNoneIsNamedAndEachRunHasAFreshHome() async throws {
        let fixture = try PanelFixture(scenarios: Self.files)
        let token = fixture.panel.access.token
        do {
            let events = try await fixture.events("/v1/scenarios/events")
            let started = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: "{}")
            #expect(started.status == 202, "\(started)")
            // The finishing event may arrive in pieces: wait for its summary, which comes last.
            #expect(try await events.waitFor(#""line":"3 passed, 1 failed""#), "\(events.received)")
            #expect(events.received.contains(#""phase":"finished""#))
            #expect(events.received.contains(#""file":"nested/state_spec.lua""#))
        } catch {
            Issue.record(error)
        }
        await fixture.close()
    }

    @Test func aSecondRunIsRefusedWhileTheFirstGoesOn() async throws {
        let gate = DispatchSemaphore(value: 0)
        let fixture = try PanelFixture(scenarios: Self.files) { home, _ in
            // The run waits here, so it is still going on when the second request comes.
            gate.wait()
            return try EnvScriptHost(configuration: HostConfiguration(home: home, attachesToHome: false))
        }
        let token = fixture.panel.access.token
        do {
            let events = try await fixture.events("/v1/scenarios/events")
            let first = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: "{}")
            #expect(first.status == 202)
            #expect(try await events.waitFor(#""phase":"running""#))
            let second = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: "{}")
            #expect(second.status == 409, "\(second)")
            #expect(second.text.contains("run 1 is still going on"))
            gate.signal()
            #expect(try await events.waitFor(#""phase":"finished""#))
            let third = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: #"{"files":["math_spec.lua"]}"#)
            gate.signal()
            #expect(third.text == #"{"run":2}"#)
        } catch {
            Issue.record(error)
        }
        await fixture.close()
    }

    @Test func aPanelStoppedMidRunLeavesNoTemporaryHomeBehind() async throws {
        let gate = DispatchSemaphore(value: 0)
        let homes = Locked<[URL]>([])
        let fixture = try PanelFixture(scenarios: Self.files) { home, _ in
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            homes.withLock { $0.append(home) }
            // Stuck, as a scenario in an endless loop would be, until the test lets it go.
            gate.wait()
            return try EnvScriptHost(configuration: HostConfiguration(home: home, attachesToHome: false))
        }
        let token = fixture.panel.access.token
        let started = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: "{}")
        #expect(started.status == 202)
        try await waitUntil("the run made its home") { !homes.withLock { $0.isEmpty } }
        let root = try #require(homes.withLock { $0.first }).deletingLastPathComponent()
        #expect(FileManager.default.fileExists(atPath: root.path))
        await fixture.close()
        #expect(!FileManager.default.fileExists(atPath: root.path), "the run's temporary folder was removed when the panel stopped")
        gate.signal()
    }

    @Test func badRequestsNameWhatIsWrong() async throws {
        let fixture = try PanelFixture(scenarios: Self.files)
        let token = fixture.panel.access.token
        do {
            let unknown = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: #"{"files":["nope.lua"]}"#)
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("no scenario file 'nope.lua'") && unknown.text.contains("math_spec.lua"))
            let outside = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: #"{"files":["../home/x.lua"]}"#)
            #expect(outside.status == 404, "a path out of the folder is not a scenario file: \(outside)")
            let notArray = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: #"{"files":"math_spec.lua"}"#)
            #expect(notArray.status == 400)
            #expect(notArray.text.contains("field 'files' must be an array of strings, not a string"))
            let unknownField = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: #"{"file":"x"}"#)
            #expect(unknownField.status == 400)
            #expect(unknownField.text.contains("unknown field 'file'"))
            let noToken = try await fixture.send("POST", "/v1/scenarios/runs", body: "{}")
            #expect(noToken.status == 403)
            let listing = try await fixture.send("GET", "/v1/scenarios", credential: .bearer(token))
            #expect(listing.text.contains(#""run":null"#), "no refused request started a run: \(listing)")
        } catch {
            Issue.record(error)
        }
        await fixture.close()
    }

    @Test func aFileThatFailsToLoadEndsTheRunWithItsError() async throws {
        let fixture = try PanelFixture(scenarios: ["broken.lua": "describe('x', function()\n  it('never', function() end\nend)\n"])
        let token = fixture.panel.access.token
        do {
            let events = try await fixture.events("/v1/scenarios/events")
            _ = try await fixture.send("POST", "/v1/scenarios/runs", credential: .bearer(token), body: "{}")
            #expect(try await events.waitFor(#""phase":"error""#))
            #expect(events.received.contains("broken.lua:"), "the error names the file and line: \(events.received)")
        } catch {
            Issue.record(error)
        }
        await fixture.close()
    }

    @Test func aPanelWithoutScenariosSaysSo() async throws {
        let fixture = try PanelFixture()
        do {
            let listing = try await fixture.send("GET", "/v1/scenarios", credential: .bearer(fixture.panel.access.token))
            #expect(listing.status == 404)
        } catch {
            Issue.record(error)
        }
        await fixture.close()
    }
}
