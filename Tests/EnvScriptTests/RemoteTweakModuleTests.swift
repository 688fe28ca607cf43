import EnvScript
import Foundation
import LuaBridge
import TestSupport
import Testing
import Tweaks

/// `tweak.remote` in a host, against a real HTTP server on 127.0.0.1 (issue "The runtime under threads",
/// item 6): the network is used in the background, never under the host's lock; `refresh` refreshes;
/// a switch brings the new container's kept copy; closing the host stops it all; options are checked.
@Suite(.timeLimit(.minutes(10))) struct RemoteTweakModuleTests {
    static func document(_ banner: String) -> String {
        #"{"remote": {"banner": {"Title": "Banner", "Value": "\#(banner)"}}}"#
    }

    /// Declares `remote` over `server` (with `options` added to the table) as the only provider.
    static func declare(_ server: RemoteTweakServer, _ options: String = "") -> String {
        "remote = tweak.remote{ url = '\(server.url)'\(options.isEmpty ? "" : ", " + options) } tweak.stack{ remote }"
    }

    static func banner(_ fixture: HostFixture) throws -> String? {
        try fixture.run("return tweak.value('remote', 'banner', 'none')").first?.stringValue
    }

    @Test func declaringAndReadingNeverWaitForTheNetwork() async throws {
        let server = try await RemoteTweakServer.start(.init(body: Self.document("v1"), etag: "\"v1\"", delay: .seconds(2)))
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        let host = fixture.host

        // The declaring call returns while the server still holds its answer back. What the server
        // answered is read on the calling thread right after each call, so a test task kept waiting
        // for a thread of the pool (the suite shares two) cannot blur the order.
        let answeredWhenDeclared = try await onAnotherThread { () -> Int in
            _ = try host.execute(Self.declare(server))
            return server.answered
        }
        #expect(answeredWhenDeclared == 0, "tweak.remote waited for the server")
        try await waitUntil("the first fetch reaches the server") { !server.requests.isEmpty }

        // Another thread gets the host's lock and reads a flag while the request is out.
        let (answeredBefore, meanwhile, answeredAfter) = try await onAnotherThread { () -> (Int, String?, Int) in
            let before = server.answered
            let value = try host.execute("return tweak.value('remote', 'banner', 'none')").first?.stringValue
            return (before, value, server.answered)
        }
        if answeredBefore == 0 {
            #expect(meanwhile == "none")
            #expect(answeredAfter == 0, "the flag read waited for the fetch: the host lock was held")
        }

        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(server.answered == 1)
        #expect(try Self.banner(fixture) == "v1")
        await server.stop()
    }

    @Test func refreshPicksUpANewAnswerRevalidatesAndNotifies() async throws {
        let server = try await RemoteTweakServer.start(.init(body: Self.document("v1"), etag: "\"v1\""))
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture.run(Self.declare(server, "refresh = 0.1, headers = { Authorization = 'Bearer qa' }") + """

            seen = {}
            tweak.on_change(function() seen[#seen + 1] = tweak.value('remote', 'banner', 'none') end)
            """)
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try Self.banner(fixture) == "v1")
        // Unchanged answers are revalidated with the ETag: 304, no change reported.
        try await waitUntil("a refresh revalidates with If-None-Match") {
            server.requests.contains { $0.ifNoneMatch == "\"v1\"" }
        }
        #expect(server.requests.allSatisfy { $0.authorization == "Bearer qa" })

        server.answer {
            $0.body = Self.document("v2")
            $0.etag = "\"v2\""
        }
        try await waitUntil("a refresh brings v2") { try Self.banner(fixture) == "v2" }
        try await waitUntil("tweak.on_change hears of v2") {
            try fixture.run("return seen[#seen]").first?.stringValue == "v2"
        }
        let seen = try fixture.run("return #seen").first?.intValue
        #expect(seen == 2, "one change for v1, one for v2; 304s report none")
        await server.stop()
    }

    /// Answers larger than `max_body` (16 MiB unless given, never above the script's memory limit) fail
    /// the fetch as they arrive: AsyncHTTPClient's own bound is 4 GiB, and a 200 MiB answer took 1.2 GB.
    @Test func anAnswerLargerThanItsBoundFailsTheFetchAndNothingOfItIsKept() async throws {
        let huge = Self.document(String(repeating: "x", count: 20 << 20))
        let server = try await RemoteTweakServer.start(.init(body: huge, etag: "\"big\""))
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture.run(Self.declare(server, "timeout = 10"))
        try await waitUntil("the status shows the refused answer") {
            try fixture.run("return remote:status().last_error").first?.stringValue != nil
        }
        let error = try fixture.run("return remote:status().last_error").first?.stringValue ?? ""
        #expect(error.contains("larger than \(16 << 20) bytes"), "\(error)")
        #expect(try Self.banner(fixture) == "none")

        // A bound given in the script, and one the script's memory limit sets.
        server.answer { $0.body = Self.document(String(repeating: "y", count: 4096)) }
        try fixture.run("remote = tweak.remote{ url = '\(server.url)', name = 'small', max_body = 1000 } tweak.stack{ remote }")
        try await waitUntil("the small bound refuses a 4 KB answer") {
            (try fixture.run("return remote:status().last_error").first?.stringValue ?? "").contains("larger than 1000 bytes")
        }
        let capped = try HostFixture(attaches: false, configure: {
            $0.permissions.networkHosts = ["127.0.0.1"]
            $0.lua.memoryLimit = 2 << 20
        })
        server.answer { $0.body = Self.document(String(repeating: "z", count: 3 << 20)) }
        try capped.run("remote = tweak.remote{ url = '\(server.url)', max_body = 100000000 } tweak.stack{ remote }")
        try await waitUntil("the memory limit bounds the answer") {
            (try capped.run("return remote:status().last_error").first?.stringValue ?? "").contains("larger than \(2 << 20) bytes")
        }
        #expect(try Self.banner(capped) == "none")
        #expect(throws: LuaError.self) { try fixture.run("tweak.remote{ url = '\(server.url)', max_body = 0 }") }
    }

    @Test func aServerThatGoesDownLeavesTheLastGoodCopyAndTheErrorInTheStatus() async throws {
        let server = try await RemoteTweakServer.start(.init(body: Self.document("v1"), etag: "\"v1\""))
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture.run(Self.declare(server, "refresh = 0.1, timeout = 2"))
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try fixture.run("return remote:status().last_error").first == .nil)

        await server.stop()
        try await waitUntil("the status shows the failed fetch") {
            try fixture.run("return remote:status().last_error").first?.stringValue != nil
        }
        let error = try fixture.run("return remote:status().last_error").first?.stringValue ?? ""
        #expect(error.contains(server.url), "\(error)")
        #expect(try Self.banner(fixture) == "v1")
        let status = try fixture.run("local s = remote:status() return s.has_tweaks, s.last_success ~= nil, s.etag")
        #expect(status == [.boolean(true), .boolean(true), .string("\"v1\"")])
        #expect(fixture.host.remoteTweakProviders.first?.status.lastError != nil)
    }

    @Test func aSwitchAnswersFromTheNewContainersKeptCopyThenRefreshes() async throws {
        let server = try await RemoteTweakServer.start(.init(body: Self.document("v1"), etag: "\"v1\""))
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture.run(Self.declare(server))
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try Self.banner(fixture) == "v1")  // and kept in the default container

        // From now on the server is slow and has v2, so what a switch shows at once is a kept copy.
        server.answer {
            $0.body = Self.document("v2")
            $0.etag = "\"v2\""
            $0.delay = .seconds(2)
        }
        try fixture.run("container.create('B') container.activate('B')")
        #expect(try Self.banner(fixture) == "none", "B has kept no copy, so nothing answers yet")
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try Self.banner(fixture) == "v2")  // now kept in B

        let requestsBefore = server.requests.count
        try fixture.run("container.activate('DEFAULT')")
        #expect(try Self.banner(fixture) == "v1", "the default container kept v1")
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try Self.banner(fixture) == "v2")
        // The refresh after the switch revalidated the copy the default container kept.
        #expect(server.requests.dropFirst(requestsBefore).first?.ifNoneMatch == "\"v1\"")
        await server.stop()
    }

    @Test func closingTheHostStopsRefreshing() async throws {
        let server = try await RemoteTweakServer.start(.init(body: Self.document("v1"), etag: "\"v1\""))
        var fixture: HostFixture? = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture!.run(Self.declare(server, "refresh = 0.05"))
        try await waitUntil("the provider refreshes") { server.requests.count >= 3 }
        var provider = fixture!.host.remoteTweakProviders.first
        #expect(provider != nil)

        fixture!.host.close()
        // No request starts after the close; the one the refresh timer may have had out (it has one at
        // a time) may still reach the server after this count: at most one more.
        let requestsAtClose = server.requests.count
        #expect(provider?.isClosed == true)
        weak var released = provider
        provider = nil
        fixture = nil
        try await waitUntil("nothing holds the provider after the host went") { released == nil }
        // A negative check, so a wait of a fixed time: ten refresh intervals, in which a refresh left
        // running would have asked again and again (its timer is on a queue of its own, not starved
        // with the test's pool).
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.requests.count <= requestsAtClose + 1, "\(server.requests.count - requestsAtClose) requests after the close")
        await server.stop()
    }

    @Test func unknownAndIllTypedOptionsAreRefusedByName() throws {
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        let url = "http://127.0.0.1:9/tweaks.json"
        let cases: [(options: String, message: String)] = [
            ("url = '\(url)', refrsh = 5",
             "bad argument #1 to 'tweak.remote' (unknown option 'refrsh'; accepted options: headers, max_body, name, refresh, timeout, url)"),
            ("'\(url)'", "expected options as name = value"),
            ("url = 5", "option 'url' must be a string, not a number"),
            ("name = 'x'", "option 'url' is required"),
            ("url = 'ftp://127.0.0.1/x'", "option 'url' must be an http or https URL"),
            ("url = '\(url)', name = true", "option 'name' must be a string, not a boolean"),
            ("url = '\(url)', timeout = '10'", "option 'timeout' must be a number of seconds, not a string"),
            ("url = '\(url)', timeout = 0", "option 'timeout' must be a number of seconds above 0"),
            ("url = '\(url)', headers = 'x'", "option 'headers' must be a table of strings keyed by strings, not a string"),
            ("url = '\(url)', headers = { Accept = 1 }", "option 'headers' must be a table of strings keyed by strings"),
        ]
        for (options, message) in cases {
            let error = try #require(throws: LuaError.self) { try fixture.run("tweak.remote{ \(options) }") }
            #expect(error.message.contains(message), "\(options): \(error.message)")
        }
        #expect(fixture.host.remoteTweakProviders.isEmpty)
    }

    @Test(arguments: ["-1", "0", "'often'", "0/0", "math.huge", "{}"])
    func aBadRefreshIsRefused(_ refresh: String) throws {
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        let error = try #require(throws: LuaError.self) {
            try fixture.run("tweak.remote{ url = 'http://127.0.0.1:9/tweaks.json', refresh = \(refresh) }")
        }
        #expect(error.message.contains("bad argument #1 to 'tweak.remote' (option 'refresh' must be a number of seconds"), "\(error.message)")
        #expect(fixture.host.remoteTweakProviders.isEmpty)
    }
}
