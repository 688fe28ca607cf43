import Containers
@testable import EnvScript
import EnvScriptOperations
import Foundation
import Locking
import LuaBridge
import Testing
import Tweaks

/// `EnvScriptHost.reloadStartupScripts()` (issue "Live reload"): the edited start-up script comes into
/// force whole, or — when it fails — not at all, and nothing the user has is lost.
@Suite struct ReloadTests {
    /// A start-up script whose one provider answers `a.x` with `value`, with `extra` Lua after it.
    static func script(_ value: String, _ extra: String = "") -> String {
        """
        tweak.stack{ tweak.ephemeral({ a = { x = '\(value)' } }, 'eph-\(value)') }
        \(extra)
        """
    }

    static func x(_ host: EnvScriptHost) throws -> String? {
        try host.tweaks.lookup(feature: "a", variable: "x").value.stringValue
    }

    @Test func aReloadPutsTheEditedScriptInForce() throws {
        let fixture = try HostFixture(attaches: false)
        let path = try fixture.write("startup.lua", Self.script("one"))
        try fixture.host.runStartupScript(atPath: path)
        #expect(try Self.x(fixture.host) == "one")

        try fixture.write("startup.lua", Self.script("two"))
        let report = try fixture.host.reloadStartupScripts()
        #expect(try Self.x(fixture.host) == "two")
        #expect(report.providers == ["eph-two"])
        #expect(report.scripts == [URL(fileURLWithPath: path).resolvingSymlinksInPath().path])
        #expect(report.milliseconds > 0)
    }

    @Test func aScriptThatFailsChangesNothing() throws {
        let fixture = try HostFixture(attaches: false)
        let path = try fixture.write("startup.lua", Self.script("one", "container.on_will_change(function() error('refused by one') end)"))
        try fixture.host.runStartupScript(atPath: path)
        let other = try fixture.host.containers.createNewContainer(name: "Other")

        // A syntax error, a runtime error on line 3 after a new stack, a refused permission, and a flag
        // file that does not load.
        try fixture.write("bad.json", #"{"a": {"x": {"Value": "two",}}}"#)
        let broken = [
            (Self.script("two", "tweak.stack{"), "startup.lua"),
            (Self.script("two", "local n = nil\nreturn n.field"), "startup.lua:3:"),
            (Self.script("two", "tweak.json('/etc/passwd')"), "/etc/passwd"),
            (Self.script("two", "tweak.stack{ tweak.json('bad.json') }"), "bad.json"),
        ]
        for (text, named) in broken {
            try fixture.write("startup.lua", text)
            let error = #expect(throws: (any Error).self) { try fixture.host.reloadStartupScripts() }
            #expect("\(error!)".contains(named), "\(error!)")
            // The running script serves on: its stack, and its hook, which still refuses the switch.
            #expect(try Self.x(fixture.host) == "one")
            #expect(throws: (any Error).self) { try fixture.host.containers.activate(container: other) }
        }
    }

    @Test func theNewHooksAloneRunAfterAReload() throws {
        let fixture = try HostFixture(attaches: false)
        let path = try fixture.write("startup.lua", Self.script("one", "container.on_will_change(function() error('refused by one') end)"))
        try fixture.host.runStartupScript(atPath: path)
        let other = try fixture.host.containers.createNewContainer(name: "Other")
        #expect(throws: (any Error).self) { try fixture.host.containers.activate(container: other) }

        try fixture.write("startup.lua", Self.script("two", "container.on_did_change(function(to) switched_to = to.name end)"))
        try fixture.host.reloadStartupScripts()
        try fixture.host.containers.activate(container: other)
        #expect(try fixture.run("return switched_to").first == .string("Other"))
    }

    @Test func stateKeepsItsValueAndATypeChangeIsRefused() throws {
        let fixture = try HostFixture(attaches: false)
        let path = try fixture.write("startup.lua", Self.script("one", "state.stored('count', 0)"))
        try fixture.host.runStartupScript(atPath: path)
        try fixture.run("state.set('count', 5)")

        try fixture.write("startup.lua", Self.script("two", "state.stored('count', 0)"))
        try fixture.host.reloadStartupScripts()
        #expect(try fixture.run("return state.get('count')").first == .integer(5))

        try fixture.write("startup.lua", Self.script("three", "state.stored('count', 'none')"))
        let error = #expect(throws: (any Error).self) { try fixture.host.reloadStartupScripts() }
        #expect("\(error!)".contains("'count'") && "\(error!)".contains("a number"), "\(error!)")
        #expect(try Self.x(fixture.host) == "two")
        #expect(try fixture.run("return state.get('count')").first == .integer(5))
    }

    @Test func observersAndTheNewHandlersHearTheChangedFlags() throws {
        let fixture = try HostFixture(attaches: false)
        let path = try fixture.write("startup.lua", Self.script("one"))
        try fixture.host.runStartupScript(atPath: path)
        let heard = HeardChanges()
        let observation = fixture.host.tweaks.observe { _ in heard.add() }
        defer { observation.remove() }

        try fixture.write("startup.lua", Self.script("two", "tweak.on_change(function() heard = (heard or 0) + 1 end)"))
        try fixture.host.reloadStartupScripts()
        #expect(heard.count >= 1)
        #expect(try fixture.run("return heard").first?.intValue ?? 0 >= 1)
    }

    @Test func whatPrepareLuaSetsIsThereAfterAReload() throws {
        let fixture = try HostFixture(attaches: false) { configuration in
            configuration.prepareLua = { lua in try lua.setGlobal("APP_SECRET", .string("from the app")) }
        }
        let path = try fixture.write("startup.lua", Self.script("one", "secret_seen = APP_SECRET"))
        try fixture.host.runStartupScript(atPath: path)
        try fixture.host.reloadStartupScripts()
        #expect(try fixture.run("return secret_seen").first == .string("from the app"))
    }

    @Test func aReloadIsRefusedFromInsideLuaAndWithoutAStartUpScript() throws {
        let fixture = try HostFixture(attaches: false)
        let refusal = #expect(throws: HostError.self) { try fixture.host.reloadStartupScripts() }
        #expect(refusal?.code == .reloadRefused)

        let path = try fixture.write("startup.lua", Self.script("one"))
        try fixture.host.runStartupScript(atPath: path)
        let host = fixture.host
        try host.lock.withLock {
            try host.lua.setGlobal("reload", function: LuaFunction("reload") { _ in
                try host.reloadStartupScripts()
                return 0
            })
        }
        let error = #expect(throws: (any Error).self) { try fixture.run("reload()") }
        #expect("\(error!)".contains("holds the host's lock"), "\(error!)")
        #expect(try Self.x(host) == "one")
    }

    @Test func aRemoteProviderDeclaredAsBeforeIsKeptAndNotFetchedAgain() async throws {
        let server = try await RemoteTweakServer.start(.init(body: RemoteTweakModuleTests.document("v1"), etag: "\"v1\""))
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        let path = try fixture.write("startup.lua", RemoteTweakModuleTests.declare(server))
        try fixture.host.runStartupScript(atPath: path)
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        let fetched = server.requests.count

        let same = try fixture.host.reloadStartupScripts()
        #expect(same.remoteProviders == 1 && same.keptRemoteProviders == 1)
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(server.requests.count == fetched, "a provider declared as before fetched again")
        #expect(try RemoteTweakModuleTests.banner(fixture) == "v1")

        // Another timeout is another declaration: a new provider, which fetches.
        try fixture.write("startup.lua", RemoteTweakModuleTests.declare(server, "timeout = 7"))
        let changed = try fixture.host.reloadStartupScripts()
        #expect(changed.keptRemoteProviders == 0)
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(server.requests.count == fetched + 1)
        #expect(try RemoteTweakModuleTests.banner(fixture) == "v1")
        await server.stop()
    }

    @Test func theWatchReloadsAfterAnEditOfTheScriptOrOfAModuleItRequires() throws {
        let fixture = try HostFixture(attaches: false) { $0.watchesStartupScripts = true }
        try fixture.write("values.lua", "return 'one'")
        let path = try fixture.write("startup.lua", """
            local value = require('values')
            tweak.stack{ tweak.ephemeral({ a = { x = value } }, 'eph') }
            """)
        try fixture.host.runStartupScript(atPath: path)
        #expect(try Self.x(fixture.host) == "one")

        func waitFor(_ value: String) throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                if try Self.x(fixture.host) == value { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
        try fixture.write("values.lua", "return 'two'")
        #expect(try waitFor("two"), "the edit of the required module was not reloaded")
        try fixture.write("startup.lua", Self.script("three"))
        #expect(try waitFor("three"), "the edit of the start-up script was not reloaded")
        // A broken edit is not taken; the next good one is.
        try fixture.write("startup.lua", "tweak.stack{")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try Self.x(fixture.host) == "three")
        try fixture.write("startup.lua", Self.script("four"))
        #expect(try waitFor("four"), "the mended script was not reloaded")
    }

    @Test func aSwiftHookAskingForAReloadInTheMiddleOfASwitchIsRefusedAtOnce() throws {
        let fixture = try HostFixture(attaches: false)
        let path = try fixture.write("startup.lua", Self.script("one"))
        try fixture.host.runStartupScript(atPath: path)
        let host = fixture.host
        let outcome = Locked<String?>(nil)
        _ = host.containers.addDidChangeHook { _, _ in
            do {
                try host.reloadStartupScripts()
                outcome.withLock { $0 = "reloaded" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        let other = try host.containers.createNewContainer(name: "Other")
        try host.containers.activate(container: other)
        #expect(outcome.withLock { $0 }?.contains("cannot be reloaded") == true, "\(outcome.withLock { $0 } ?? "no outcome")")
        #expect(try Self.x(host) == "one")
    }

    @Test func theLastRegistrationOfADependencyWinsAfterAReloadAsAtStartUp() throws {
        let fixture = try HostFixture(attaches: false)
        let registrations = (1...12).map { "dependency.register('service', function() return 'v\($0)' end)" }
        let path = try fixture.write("startup.lua", Self.script("one", registrations.joined(separator: "\n")))
        try fixture.host.runStartupScript(atPath: path)
        #expect(try fixture.run("return dependency.get('service')").first == .string("v12"))
        for _ in 0..<3 {
            try fixture.host.reloadStartupScripts()
            #expect(try fixture.run("return dependency.get('service')").first == .string("v12"))
        }
    }

    @Test func lookupsFromFourThreadsSeeOneScriptOrTheOtherAcrossAHundredReloads() throws {
        let fixture = try HostFixture(attaches: false)
        let host = fixture.host
        // A Lua provider over a plain one, and a decryptor: all three change together with each reload.
        func script(_ value: String) -> String {
            """
            tweak.stack{
              tweak.provider{ name = 'lua', get = function(feature, variable) if variable == 'x' then return '\(value)' end end },
              tweak.ephemeral({ a = { y = '\(value)' } }, 'eph'),
            }
            tweak.decryptor(function(t) return '\(value)' end)
            """
        }
        let path = try fixture.write("startup.lua", script("one"))
        try host.runStartupScript(atPath: path)
        let scripts = [script("one"), script("two")]
        for round in 0..<20 {
            try fixture.write("startup.lua", scripts[round % 2])
            try host.reloadStartupScripts()
        }
        // Every state a reload replaced goes (the test shares its process, so its resident memory is
        // not this test's alone: scripts/bench measures that, in a process of its own).
        final class WeakState { weak var state: LuaState?; init(_ state: LuaState) { self.state = state } }
        var states: [WeakState] = []

        let done = Locked(false)
        let problems = Locked<[String]>([])
        let lookups = Locked(0)
        let running = Locked(0)
        for _ in 0..<4 {
            // Threads of their own, not the test pool's (which other suites share).
            Thread.detachNewThread {
                running.withLock { $0 += 1 }
                defer { running.withLock { $0 -= 1 } }
                while !done.withLock({ $0 }) {
                    do {
                        for variable in ["x", "y"] {
                            let value = try host.tweaks.lookup(feature: "a", variable: variable).value.stringValue
                            if value != "one" && value != "two" {
                                problems.withLock { $0.append("\(variable) = \(value ?? "nil")") }
                            }
                        }
                        lookups.withLock { $0 += 2 }
                    } catch {
                        problems.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        while lookups.withLock({ $0 }) < 8 { Thread.sleep(forTimeInterval: 0.001) }
        let lookupsBefore = lookups.withLock { $0 }
        for round in 0..<100 {
            try fixture.write("startup.lua", scripts[round % 2])
            let report = try host.reloadStartupScripts()
            #expect(report.providers == ["lua", "eph"])
            states.append(WeakState(host.lock.withLock { host.lua }))
        }
        let lookupsDuring = lookups.withLock { $0 } - lookupsBefore
        done.withLock { $0 = true }
        while running.withLock({ $0 }) > 0 { Thread.sleep(forTimeInterval: 0.001) }
        #expect(lookupsDuring >= 100, "the threads looked up \(lookupsDuring) times during the reloads: too few to race them")
        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { Array($0.prefix(5)) })")
        let alive = states.filter { $0.state != nil }.count
        #expect(alive <= 2, "\(alive) of the 100 states the reloads made are still there")
    }
}

/// Counts the changes an observer heard, from any thread.
final class HeardChanges: Sendable {
    private let heard = Locked(0)
    func add() { heard.withLock { $0 += 1 } }
    var count: Int { heard.withLock { $0 } }
}

/// `POST /v1/reload` on the control socket: 200 with the report, 409 naming the broken line.
@Suite struct ReloadRouteTests {
    @Test func theEventStreamTellsOfTheFlagsAReloadChanged() async throws {
        try await ControlAPIFixture.with { api in
            let events = try await api.openEvents()
            defer { events.close() }
            let path = api.fixture.folder.appendingPathComponent("startup.lua").path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            // The shipped provider alone now: the overrides drop out of the stack.
            try text.replacingOccurrences(of: "tweak.overrides(), ", with: "").write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try await api.send("POST", "/v1/reload").status == 200)
            let tweak = try await events.next { $0.name == "tweak" }
            #expect(tweak.name == "tweak")
            let providers = try await api.send("GET", "/v1/tweaks/providers").json()
            #expect("\(providers)".contains("shipped") && !"\(providers)".contains("\"overrides\""), "\(providers)")
        }
    }

    @Test func aReloadAnswersItsReportAndABrokenScriptAnswers409NamingItsLine() async throws {
        let document = try OpenAPIDocument.load()
        try await ControlAPIFixture.with { api in
            let answer = try await api.send("POST", "/v1/reload")
            #expect(answer.status == 200, "\(answer)")
            let report = try answer.json()
            #expect(report["providers"] == .array([.string("overrides"), .string("shipped")]))
            #expect(report["registrations"] == .int(1))
            let schema = try #require(document.json["components"]?["schemas"]?["ScriptReload"])
            #expect(document.problems(of: report, against: schema).isEmpty)

            let path = api.fixture.folder.appendingPathComponent("startup.lua").path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try (text + "\nlocal broken = nil\nreturn broken.field\n").write(toFile: path, atomically: true, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            let refused = try await api.send("POST", "/v1/reload")
            #expect(refused.status == 409)
            let error = try refused.json()["error"]
            #expect(error?["code"] == .string("refused"))
            #expect(error?["message"]?.string?.contains("startup.lua:\(lines + 2):") == true, "\(error.map { "\($0)" } ?? "")")
            // The scripts in force go on: their hook still refuses Frozen.
            _ = try await api.send("POST", "/v1/containers", body: #"{"name": "Frozen"}"#)
            #expect(try await api.send("POST", "/v1/containers/Frozen/activate").status == 409)
        }
    }
}
