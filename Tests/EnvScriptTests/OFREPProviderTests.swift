import EnvScript
import Foundation
import Hummingbird
import Locking
import RemoteTweaks
import TestSupport
import Testing
import Tweaks

/// A real OFREP service on 127.0.0.1: a host's own OFREP routes (`ControlRoutes` on a `BackgroundServer`
/// over TCP) over a stack where `checkout.layout` is targeted ("new", variant "on", TARGETING_MATCH for
/// German users; "old", "off", DEFAULT for the others) and `checkout.button_color` ("blue") and
/// `checkout.enabled` (true) are STATIC. A middleware in front records each request (its
/// `If-None-Match`, the status answered, when) and can hold answers back or answer scripted statuses.
final class OFREPServer {
    struct Seen: Sendable {
        var ifNoneMatch: String?
        var status: Int
        var at: ContinuousClock.Instant
    }

    struct Scripted: Sendable {
        var status: Int
        var retryAfter: String?
        var body: String = ""
    }

    final class Shared: Sendable {
        struct State {
            var seen: [Seen] = []
            /// Requests received, answered or not.
            var received = 0
            var delay: Duration = .zero
            var scripted: [Scripted] = []
        }
        let state = Locked(State())
    }

    struct Recorder<Context: RequestContext>: RouterMiddleware {
        let shared: Shared

        func handle(
            _ request: Request, context: Context, next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let (delay, scripted) = shared.state.withLock { state in
                state.received += 1
                return (state.delay, state.scripted.isEmpty ? nil : state.scripted.removeFirst())
            }
            if delay > .zero { try await Task.sleep(for: delay) }
            let response: Response
            if let scripted {
                var headers: HTTPFields = [:]
                if let retryAfter = scripted.retryAfter { headers[.retryAfter] = retryAfter }
                response = Response(
                    status: HTTPResponse.Status(code: scripted.status), headers: headers,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: scripted.body)))
            } else {
                response = try await next(request, context)
            }
            let seen = Seen(ifNoneMatch: request.headers[.ifNoneMatch], status: Int(response.status.code), at: .now)
            shared.state.withLock { $0.seen.append(seen) }
            return response
        }
    }

    let fixture: HostFixture
    let shared = Shared()
    private let server: BackgroundServer
    let port: Int

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var seen: [Seen] { shared.state.withLock { $0.seen } }
    var received: Int { shared.state.withLock { $0.received } }

    init() throws {
        fixture = try HostFixture(attaches: false)
        let shipped = try fixture.write("shipped.json", #"{"checkout": {"button_color": {"Value": "blue"}, "enabled": {"Value": true}}}"#)
        try fixture.run("""
            tweak.stack{ tweak.overrides(), tweak.provider{ name = 'rules',
              get = function(feature, variable, ctx)
                if feature == 'checkout' and variable == 'layout' then
                  if ctx.country == 'DE' then return {value = 'new', variant = 'on', reason = 'TARGETING_MATCH'} end
                  return {value = 'old', variant = 'off', reason = 'DEFAULT'}
                end
              end,
              list = function() return {{feature = 'checkout', variable = 'layout', value = 'old'}} end },
              tweak.json('\(shipped)', 'shipped') }
            """)
        let router = Router()
        router.add(middleware: Recorder(shared: shared))
        router.add(middleware: ControlErrorMiddleware())
        ControlRoutes.register(on: router, host: fixture.host)
        server = try BackgroundServer(
            router: router, address: .hostname("127.0.0.1", port: 0), serverName: "ofrep-provider-tests")
        port = server.port ?? 0
    }

    /// Holds every answer back by `delay`.
    func delay(_ delay: Duration) { shared.state.withLock { $0.delay = delay } }

    /// Answers the next requests with these statuses instead of evaluating.
    func script(_ answers: [Scripted]) { shared.state.withLock { $0.scripted += answers } }

    func stop() async { await server.stopAndWait() }
}

/// `OFREPTweakProvider` and `tweak.ofrep` against a real OFREP service.
@Suite(.timeLimit(.minutes(10))) struct OFREPProviderTests {
    static let german = TweakContext(attributes: ["country": .string("DE")])

    /// A provider of `server` asking for `context`, keeping its copy in `folder`.
    static func provider(
        _ server: OFREPServer, folder: URL, context: TweakContext = german, refresh: TimeInterval? = nil
    ) -> OFREPTweakProvider {
        OFREPTweakProvider(
            configuration: .init(
                url: server.url, refreshInterval: refresh, timeout: 10,
                keptCopy: folder.appendingPathComponent("ofrep.json")),
            context: context)
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ofrep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A stack of `tweak.ofrep` alone answers from the service in a one-shot command on a fresh home:
    /// the command waits for its first fetch, as for `tweak.remote` (it answered nil or "not loaded yet",
    /// with no connection reaching the server, in 5 of 6 fresh runs).
    @Test func aOneShotCommandWaitsForTheFirstFetch() async throws {
        let server = try OFREPServer()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let startup = "tweak.stack{ tweak.ofrep{ url = '\(server.url.absoluteString)' } }\n"
        try startup.write(to: folder.appendingPathComponent("envscript.lua"), atomically: true, encoding: .utf8)
        try "print(tweak.value('checkout', 'button_color', 'none'))\n"
            .write(to: folder.appendingPathComponent("read.lua"), atomically: true, encoding: .utf8)
        let envscript = try BuiltBinary.url(named: "envscript", override: "ENVSCRIPT_BINARY")
        let grant = ["--allow-net", "127.0.0.1:\(server.port)"]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "ENVSCRIPT_HOME")
        for round in 0..<3 {
            // A fresh temporary home each time: nothing kept from an earlier fetch.
            let run = try ChildProcess.run(envscript, ["run"] + grant + ["read.lua"], in: folder, environment: environment)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.hasSuffix("blue\n"), "round \(round): \(run.standardOutput)")
            let home = folder.appendingPathComponent("home-\(round)").path
            // Empty: `tweak get` reads a home and makes none.
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
            let get = try ChildProcess.run(
                envscript, ["tweak", "get", "--home", home] + grant + ["checkout", "button_color"], in: folder, environment: environment)
            #expect(get.status == 0, "\(get.standardError)")
            #expect(get.standardOutput.contains("blue"), "round \(round): \(get.standardOutput)")
        }
        #expect(server.received >= 6)
    }

    @Test func valuesVariantsAndReasonsArriveAndAnETagRevalidates() async throws {
        let server = try OFREPServer()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ofrep = Self.provider(server, folder: folder)
        let tweaks = TweakManager(providers: [ofrep])

        #expect(throws: TweakError.self) { try ofrep.tweak(feature: "checkout", variable: "layout") }
        #expect(try await ofrep.refresh() == .updated)

        let layout = tweaks.resolve("checkout", "layout", default: "none")
        #expect(layout.value == "new")
        #expect(layout.variant == "on")
        #expect(layout.reason == .targetingMatch)
        #expect(layout.errorCode == nil)
        #expect(layout.source == "ofrep")
        let color = tweaks.resolve("checkout", "button_color", default: "none")
        #expect(color.value == "blue")
        #expect(color.reason == .static)
        #expect(tweaks.resolve("checkout", "enabled", default: false).value == true)
        #expect(try ofrep.evaluate(feature: "nothing", variable: "here", context: .empty) == nil, "a flag the copy lacks is nil")
        #expect(tweaks.resolve("nothing", "here", default: 1).errorCode == .flagNotFound)
        #expect(try ofrep.tweak(feature: "checkout", variable: "layout")?.dependsOnContext == true)
        #expect(try ofrep.tweak(feature: "checkout", variable: "button_color")?.dependsOnContext == false)

        // Revalidation: the ETag goes back and a 304 keeps the copy.
        let tag = try #require(ofrep.status.etag)
        #expect(try await ofrep.refresh() == .notModified)
        #expect(server.seen.map(\.status) == [200, 304])
        #expect(server.seen.last?.ifNoneMatch == tag)
        #expect(tweaks.resolve("checkout", "layout", default: "none").value == "new")

        // A change on the server: a new ETag, a new answer.
        try server.fixture.run("tweak.set('checkout', 'button_color', 'red')")
        #expect(try await ofrep.refresh() == .updated)
        #expect(server.seen.last?.status == 200)
        #expect(ofrep.status.etag != tag)
        #expect(try ofrep.tweak(feature: "checkout", variable: "button_color")?.value == .string("red"))
        ofrep.close()
        await server.stop()
    }

    @Test func theKeptCopyAnswersAfterARestartWithTheServerDown() async throws {
        let server = try OFREPServer()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Self.provider(server, folder: folder)
        #expect(try await first.refresh() == .updated)
        first.close()
        await server.stop()

        let again = Self.provider(server, folder: folder)
        #expect(again.status.isFromKeptCopy)
        let layout = try #require(try again.tweak(feature: "checkout", variable: "layout"))
        #expect(layout.value == .string("new"))
        #expect(layout.variant == "on")
        #expect(layout.reason == .targetingMatch)
        await #expect(throws: TweakError.self) { try await again.refresh() }
        #expect(try again.tweak(feature: "checkout", variable: "layout")?.value == .string("new"), "a failed fetch keeps the copy")

        // A copy evaluated for another context is not taken as this context's.
        let french = Self.provider(server, folder: folder, context: TweakContext(attributes: ["country": .string("FR")]))
        #expect(!french.status.hasTweaks)
        #expect(throws: TweakError.self) { try french.tweak(feature: "checkout", variable: "layout") }
    }

    @Test func aRetryAfterOn429DelaysTheNextFetch() async throws {
        let server = try OFREPServer()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        server.script([.init(status: 429, retryAfter: "2")])
        let ofrep = Self.provider(server, folder: folder, refresh: 0.1)
        ofrep.startRefreshing()
        #expect(try await waitUntil("the 429 then a 200, applied") { server.seen.count >= 2 && ofrep.status.hasTweaks })
        let seen = server.seen
        #expect(seen.map(\.status).prefix(2) == [429, 200])
        let pause = seen[0].at.duration(to: seen[1].at)
        #expect(pause >= .milliseconds(1900), "asked again \(pause) after a Retry-After of 2 seconds")
        #expect(pause < .seconds(4), "the refresh went on after the pause")
        #expect(try ofrep.tweak(feature: "checkout", variable: "layout")?.value == .string("new"))
        ofrep.close()

        await server.stop()

        // An HTTP date, and a caller's refresh during the pause: refused without a request. A server of
        // its own, so that a request of the closed provider still under way cannot take its answer.
        let datedServer = try OFREPServer()
        let dated = Self.provider(datedServer, folder: try Self.temporaryFolder())
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        datedServer.script([.init(status: 429, retryAfter: formatter.string(from: Date().addingTimeInterval(60)))])
        await #expect(throws: TweakError.self) { try await dated.refresh() }
        let count = datedServer.seen.count
        await #expect(throws: TweakError.self) { try await dated.refresh() }
        #expect(datedServer.seen.count == count, "a request went out before the Retry-After date")
        dated.close()
        await datedServer.stop()
    }

    @Test func aLookupInAnotherContextAnswersStaticFlagsAndStaleForTheOthersWithoutWaiting() async throws {
        let server = try OFREPServer()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ofrep = Self.provider(server, folder: folder, refresh: 0.05)
        let tweaks = TweakManager(providers: [ofrep])
        #expect(try await ofrep.refresh() == .updated)
        // From now on every answer takes 3 seconds, and the provider keeps asking.
        server.delay(.seconds(3))
        ofrep.startRefreshing()
        #expect(try await waitUntil("a request is held by the server") { server.received >= 2 })

        let french = TweakContext(attributes: ["country": .string("FR")])
        let clock = ContinuousClock()
        var layout: TweakResolution<String>?
        var color: TweakResolution<String>?
        var same: TweakResolution<String>?
        let took = clock.measure {
            layout = tweaks.resolve("checkout", "layout", default: "fallback", context: french)
            color = tweaks.resolve("checkout", "button_color", default: "fallback", context: french)
            same = tweaks.resolve("checkout", "layout", default: "fallback", context: Self.german)
        }
        #expect(took < .milliseconds(500), "the lookups took \(took)")
        #expect(layout?.value == "fallback")
        #expect(layout?.reason == .stale)
        #expect(layout?.errorCode == .providerNotReady)
        #expect(color?.value == "blue")
        #expect(color?.reason == .static)
        #expect(color?.errorCode == nil)
        #expect(same?.value == "new", "the lookup's context over the provider's is the same context")
        #expect(same?.reason == .targetingMatch)
        ofrep.close()
        await server.stop()
    }

    @Test func errorEntriesAndEntriesWithoutAValueGiveTheCallersDefault() async throws {
        let server = try OFREPServer()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        server.script([.init(status: 200, body: """
            {"flags": [{"key": "a.b", "errorCode": "PARSE_ERROR", "errorDetails": "bad rule"},
                       {"key": "gone", "errorCode": "FLAG_NOT_FOUND", "errorDetails": "no such flag"},
                       {"key": "off", "reason": "DISABLED", "variant": null, "metadata": {"owner": "qa"}},
                       {"key": "ratio", "value": 2.0, "reason": "STATIC", "variant": "two", "metadata": {}}],
             "metadata": {"set": "s1"}}
            """)])
        let ofrep = Self.provider(server, folder: folder)
        let lower = EphemeralTweakProvider(name: "lower", tweaks: [Tweak(feature: "gone", variable: "gone", value: .string("below"))])
        let tweaks = TweakManager(providers: [ofrep, lower])
        #expect(try await ofrep.refresh() == .updated)

        let broken = tweaks.resolve("a", "b", default: "fallback")
        #expect(broken.value == "fallback")
        #expect(broken.errorCode == .parseError)
        #expect(broken.errorMessage?.contains("bad rule") == true)
        let gone = tweaks.resolve("gone", "gone", default: "fallback")
        #expect(gone.value == "below", "FLAG_NOT_FOUND asks the next provider")
        #expect(gone.source == "lower")
        let off = tweaks.resolve("off", "off", default: "fallback")
        #expect(off.value == "fallback")
        #expect(off.reason == .disabled)
        #expect(off.errorCode == nil)
        let ratio = try #require(try ofrep.tweak(feature: "ratio", variable: "ratio"))
        #expect(ratio.value == .double(2))
        #expect(ratio.variant == "two")
        #expect(ratio.metadata["set"] == .string("s1"), "the answer's metadata under the flag's")
        ofrep.close()
        await server.stop()
    }

    @Test func tweakOfrepIsRefusedWithoutANetworkGrantAndWorksWithOne() async throws {
        let server = try OFREPServer()
        let refused = try HostFixture(attaches: false)
        #expect(throws: (any Error).self) {
            try refused.run("tweak.ofrep{ url = '\(server.url.absoluteString)' }")
        }
        #expect(server.seen.isEmpty)

        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture.run("""
            flags = tweak.ofrep{ url = '\(server.url.absoluteString)', context = { country = 'DE' }, refresh = 60 }
            tweak.stack{ flags }
            """)
        #expect(fixture.host.ofrepTweakProviders.count == 1)
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try fixture.run("return tweak.value('checkout', 'layout', 'none')").first?.stringValue == "new")
        // Another context, from Lua: the targeted flag is stale, the static one answers from the copy.
        let stale = try fixture.run("""
            local value, info = tweak.get('checkout', 'layout', { country = 'FR' })
            local color, colorInfo = tweak.get('checkout', 'button_color', { country = 'FR' })
            return value, info.reason, info.error_code, color, colorInfo.reason
            """)
        #expect(stale.map { $0.stringValue } == [nil, "STALE", "PROVIDER_NOT_READY", "blue", "STATIC"])
        #expect(try fixture.run("return flags:status().url").first?.stringValue == server.url.absoluteString + "/ofrep/v1/evaluate/flags")
        #expect(throws: (any Error).self) { try fixture.run("tweak.ofrep{ url = 'ftp://x' }") }
        #expect(throws: (any Error).self) { try fixture.run("tweak.ofrep{ url = '\(server.url.absoluteString)', context = 3 }") }
        await server.stop()
    }

    @Test func aSwitchAnswersFromTheNewContainersKeptCopyThenRefreshes() async throws {
        let server = try OFREPServer()
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture.run("tweak.stack{ tweak.ofrep{ url = '\(server.url.absoluteString)', refresh = 60 } }")
        func color() throws -> String? { try fixture.run("return tweak.value('checkout', 'button_color', 'none')").first?.stringValue }
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try color() == "blue")  // and kept in the default container

        // From now on the service says red, slowly: what a switch shows at once is a kept copy.
        try server.fixture.host.tweaks.set(.string("red"), feature: "checkout", variable: "button_color")
        server.delay(.seconds(2))
        try fixture.run("container.create('B') container.activate('B')")
        #expect(try color() == "none", "B has kept no copy, so nothing answers yet")
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try color() == "red")  // now kept in B

        let requestsBefore = server.seen.count
        try fixture.run("container.activate('DEFAULT')")
        #expect(try color() == "blue", "the default container kept the blue answer")
        #expect(await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20)))
        #expect(try color() == "red")
        // The refresh after the switch revalidated the copy the default container kept.
        let revalidation = try #require(server.seen.dropFirst(requestsBefore).first)
        #expect(revalidation.ifNoneMatch != nil && revalidation.status == 200)
        await server.stop()
    }
}
