import Foundation
import Testing
@testable import RemoteTweaks
import Tweaks
import TestSupport
import Locking

/// The remote provider against a real HTTP server on 127.0.0.1.
@Suite struct RemoteTweakProviderTests {
    static let version1 = #"{"remote": {"banner": {"Title": "Banner", "Value": "v1"}, "limit": {"Value": 5}}}"#
    static let version2 = #"{"remote": {"banner": {"Title": "Banner", "Value": "v2"}, "limit": {"Value": 5}}}"#

    /// Serves `body` with `etag`, answering 304 to a matching If-None-Match.
    static func serving(_ body: String, etag: String) -> @Sendable (TestHTTPServer.Request) -> TestHTTPServer.Response {
        { request in
            if request.headers["if-none-match"] == etag {
                return .respond(status: 304, headers: ["ETag": etag], body: Data())
            }
            return .respond(status: 200, headers: ["ETag": etag, "Content-Type": "application/json"], body: Data(body.utf8))
        }
    }

    func configuration(_ server: TestHTTPServer, _ folder: TemporaryFolder, timeout: TimeInterval = 5)
        -> RemoteTweakProvider.Configuration
    {
        RemoteTweakProvider.Configuration(
            url: server.url, refreshInterval: 3600, timeout: timeout,
            keptCopy: RemoteTweakProvider.keptCopyURL(home: folder.url, name: "remote"))
    }

    @Test func fetchesThenRevalidatesWithTheETag() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer(handler: Self.serving(Self.version1, etag: "\"v1\""))
        defer { server.stop() }
        let remote = RemoteTweakProvider(configuration: configuration(server, folder))
        let manager = TweakManager(providers: [remote], cacheEnabled: true)

        #expect(try await remote.refresh() == .updated)
        #expect(try manager.value("remote", "banner", as: String.self) == "v1")
        #expect(try manager.lookup(feature: "remote", variable: "banner").tweak.title == "Banner")
        #expect(remote.status.etag == "\"v1\"")

        #expect(try await remote.refresh() == .notModified)
        #expect(server.requests.map { $0.headers["if-none-match"] } == [nil, "\"v1\""])

        server.respond(Self.serving(Self.version2, etag: "\"v2\""))
        let changes = Locked<Int>(0)
        let observation = manager.observe { _ in changes.withLock { $0 += 1 } }
        #expect(try await remote.refresh() == .updated)
        #expect(try manager.value("remote", "banner", as: String.self) == "v2")  // the cache was invalidated
        #expect(changes.withLock { $0 } == 1)
        observation.remove()
    }

    /// What a server sends back is bounded: an entity tag longer than 1 KiB is neither kept nor sent
    /// back (the next fetch is a full one), and a `Retry-After` pauses at most an hour.
    @Test func longEntityTagsAreDroppedAndRetryAfterIsBounded() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let huge = "\"" + String(repeating: "e", count: 60_000) + "\""
        let server = try TestHTTPServer(handler: Self.serving(Self.version1, etag: huge))
        defer { server.stop() }
        let remote = RemoteTweakProvider(configuration: configuration(server, folder))
        #expect(try await remote.refresh() == .updated)
        #expect(remote.status.etag == nil)
        _ = try await remote.refresh()
        #expect(server.requests.map { $0.headers["if-none-match"] } == [nil, nil])

        let now = Date()
        #expect(RemoteDocument<Int>.retryDate("120", now: now) == now.addingTimeInterval(120))
        #expect(RemoteDocument<Int>.retryDate("31536000", now: now) == now.addingTimeInterval(3600))
        #expect(RemoteDocument<Int>.retryDate("Fri, 31 Dec 2999 23:59:59 GMT", now: now) == now.addingTimeInterval(3600))
    }

    @Test func aServerErrorKeepsTheLastGoodCopy() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer(handler: Self.serving(Self.version1, etag: "\"v1\""))
        defer { server.stop() }
        let remote = RemoteTweakProvider(configuration: configuration(server, folder))
        try await remote.refresh()

        server.respond { _ in .respond(status: 500, headers: [:], body: Data("oops".utf8)) }
        await #expect {
            try await remote.refresh()
        } throws: { error in
            guard case .httpStatus(_, let status)? = (error as? TweakError)?.reason else { return false }
            return status == 500
        }
        #expect(try remote.tweak(feature: "remote", variable: "banner")?.value == "v1")
        #expect(remote.status.lastError != nil)
    }

    @Test func withNothingToServeTheFailureShowsInLookups() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer { _ in .respond(status: 500, headers: [:], body: Data()) }
        defer { server.stop() }
        let remote = RemoteTweakProvider(configuration: configuration(server, folder))
        let defaults = EphemeralTweakProvider(name: "defaults", values: ["remote": ["banner": "default"]])
        let manager = TweakManager(providers: [remote, defaults])

        let before = try manager.lookup(feature: "remote", variable: "banner")
        #expect(before.value == "default")
        guard (before.failures.first?.error as? TweakError)?.code == .remoteNotLoaded else {
            Issue.record("expected remoteNotLoaded, got \(before.failures)")
            return
        }
        _ = try? await remote.refresh()
        let after = try manager.lookup(feature: "remote", variable: "banner")
        #expect(after.value == "default")
        guard case .httpStatus(_, 500)? = (after.failures.first?.error as? TweakError)?.reason else {
            Issue.record("expected HTTP 500, got \(after.failures)")
            return
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        let remote = RemoteTweakProvider(configuration: configuration(server, folder, timeout: 1))
        await #expect {
            try await remote.refresh()
        } throws: { error in
            guard case .timedOut(_, let seconds)? = (error as? TweakError)?.reason else { return false }
            return seconds == 1
        }
    }

    @Test func aMalformedBodyIsAnErrorWithItsLine() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer(handler: Self.serving(Self.version1, etag: "\"v1\""))
        defer { server.stop() }
        let remote = RemoteTweakProvider(configuration: configuration(server, folder))
        try await remote.refresh()

        server.respond { _ in .respond(status: 200, headers: ["ETag": "\"bad\""], body: Data("{\n  \"remote\": {\n    oops\n".utf8)) }
        let url = server.url.absoluteString
        await #expect {
            try await remote.refresh()
        } throws: { error in
            guard case .invalidJSON(let file, let line, _, _, _)? = (error as? TweakError)?.reason else { return false }
            return file == url && line == 3
        }
        #expect(try remote.tweak(feature: "remote", variable: "banner")?.value == "v1")
        #expect(remote.status.etag == "\"v1\"")  // the bad document's ETag is not adopted
    }

    @Test func startsOfflineFromTheKeptCopyAndRevalidatesIt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer(handler: Self.serving(Self.version1, etag: "\"v1\""))
        let config = configuration(server, folder)
        do {
            let first = RemoteTweakProvider(configuration: config)
            try await first.refresh()
        }
        server.stop()

        // The server is gone: a new provider still answers, from the kept copy.
        let offline = RemoteTweakProvider(configuration: config)
        #expect(offline.status.isFromKeptCopy)
        let manager = TweakManager(providers: [offline])
        #expect(try manager.value("remote", "banner", as: String.self) == "v1")
        await #expect(throws: TweakError.self) { try await offline.refresh() }
        #expect(try manager.value("remote", "banner", as: String.self) == "v1")

        // Back online on the same port is not guaranteed, so serve anew and point a provider at it.
        let again = try TestHTTPServer(handler: Self.serving(Self.version1, etag: "\"v1\""))
        defer { again.stop() }
        var moved = config
        moved.url = again.url
        // A kept copy of another URL is not used.
        let elsewhere = RemoteTweakProvider(configuration: moved)
        #expect(!elsewhere.status.hasTweaks)
        try await elsewhere.refresh()
        let revalidating = RemoteTweakProvider(configuration: moved)
        #expect(try revalidating.refreshNow() == .notModified)
        #expect(again.requests.last?.headers["if-none-match"] == "\"v1\"")
    }

    @Test func aDamagedKeptCopyIsReportedNotFatal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let keptCopy = RemoteTweakProvider.keptCopyURL(home: folder.url, name: "remote")
        try FileManager.default.createDirectory(at: keptCopy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: keptCopy)
        let remote = RemoteTweakProvider(
            configuration: .init(url: URL(string: "http://127.0.0.1:9/none")!, keptCopy: keptCopy))
        #expect(remote.status.keptCopyError != nil)
        #expect(throws: TweakError.self) { try remote.tweak(feature: "f", variable: "v") }
    }

    @Test func periodicRefreshPicksUpChanges() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer(handler: Self.serving(Self.version1, etag: "\"v1\""))
        defer { server.stop() }
        var config = configuration(server, folder)
        config.refreshInterval = 0.05
        let remote = RemoteTweakProvider(configuration: config)
        let manager = TweakManager(providers: [remote])
        // Waits on change notifications, not on the clock.
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let observation = manager.observe { _ in
            continuation.yield(manager.value("remote", "banner", default: "none"))
        }
        remote.startRefreshing()
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == "v1")
        server.respond(Self.serving(Self.version2, etag: "\"v2\""))
        var latest = "v1"
        while latest != "v2", let next = await iterator.next() { latest = next }
        #expect(latest == "v2")
        remote.stopRefreshing()
        observation.remove()
    }

    @Test func waitUntilFetchedWaitsForTheFirstAnswerWithADeadline() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        // A timeout far longer than the test, so that however long the test's task waits for a thread
        // (the whole suite shares two), the hanging request cannot end on its own meanwhile.
        let remote = RemoteTweakProvider(configuration: configuration(server, folder, timeout: 600))
        remote.startRefreshing()
        #expect(await remote.waitUntilFetched(timeout: .milliseconds(200)) == false)
        server.respond(Self.serving(Self.version1, etag: "\"v1\""))
        remote.startRefreshing()  // the hanging request is cancelled; a new one gets the answer
        #expect(await remote.waitUntilFetched(timeout: .seconds(20)))
        #expect(try remote.tweak(feature: "remote", variable: "banner")?.value == "v1")
        #expect(remote.status.lastError == nil, "a cancelled request is not a failure of the server")
        remote.close()
    }

    @Test func afterCloseNothingIsFetchedAppliedOrKept() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        // As above: the request out must not time out before the test closes the provider.
        let config = configuration(server, folder, timeout: 600)
        let remote = RemoteTweakProvider(configuration: config)
        remote.startRefreshing()
        let deadline = ContinuousClock.now + .seconds(60)
        while server.requests.isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.requests.count == 1)

        remote.close()
        // The server answers the request that was out only now: the answer must be dropped.
        server.respond(Self.serving(Self.version1, etag: "\"v1\""))
        #expect(remote.isClosed)
        await #expect {
            try await remote.refresh()
        } throws: { error in
            guard (error as? TweakError)?.code == .remoteClosed else { return false }
            return true
        }
        remote.startRefreshing()
        #expect(await remote.waitUntilFetched(timeout: .milliseconds(300)) == false)
        #expect(server.requests.count == 1)
        #expect(!FileManager.default.fileExists(atPath: config.keptCopy!.path))
        #expect(!remote.status.hasTweaks)
    }
}
