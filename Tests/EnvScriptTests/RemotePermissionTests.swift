import EnvScript
import Foundation
import Testing

/// `tweak.remote` reaches only the hosts the permissions grant, redirects included.
@Suite(.timeLimit(.minutes(10))) struct RemotePermissionTests {
    typealias Server = RemoteTweakServer

    @Test func aRedirectToAHostNotGrantedIsNotFollowed() async throws {
        let target = try await Server.start(.init(body: RemoteTweakModuleTests.document("elsewhere")))
        let redirecting = try await Server.start(.init(body: "", status: 302, location: target.url))
        for (grant, expected) in [("127.0.0.1:\(redirecting.port)", "none"), ("127.0.0.1", "elsewhere")] {
            let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = [grant] })
            try fixture.run(RemoteTweakModuleTests.declare(redirecting))
            _ = await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20))
            #expect(try RemoteTweakModuleTests.banner(fixture) == expected, "granted \(grant)")
        }
        #expect(target.requests.count == 1, "only the grant of every port of 127.0.0.1 reaches the other server")
        await target.stop()
        await redirecting.stop()
    }

    /// The configured headers (a bearer token) go to the configured origin only: a redirect to another
    /// port is followed, without them.
    @Test func theConfiguredHeadersDoNotFollowARedirectToAnotherOrigin() async throws {
        let target = try await Server.start(.init(body: RemoteTweakModuleTests.document("elsewhere")))
        let redirecting = try await Server.start(.init(body: "", status: 302, location: target.url))
        let fixture = try HostFixture(attaches: false, configure: { $0.permissions.networkHosts = ["127.0.0.1"] })
        try fixture.run(RemoteTweakModuleTests.declare(redirecting, "headers = { Authorization = 'Bearer secret' }"))
        _ = await fixture.host.waitUntilRemoteTweaksFetched(timeout: .seconds(20))
        #expect(try RemoteTweakModuleTests.banner(fixture) == "elsewhere")
        #expect(redirecting.requests.map(\.authorization) == ["Bearer secret"])
        #expect(target.requests.count == 1)
        #expect(target.requests.allSatisfy { $0.authorization == nil }, "the token went to another origin")
        await target.stop()
        await redirecting.stop()
    }

    @Test func anUngrantedHostIsRefusedBeforeAnyRequest() async throws {
        let server = try await Server.start(.init(body: RemoteTweakModuleTests.document("v1")))
        let fixture = try HostFixture(attaches: false)
        #expect(throws: (any Error).self) { try fixture.run(RemoteTweakModuleTests.declare(server)) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(server.requests.isEmpty)
        await server.stop()
    }
}
