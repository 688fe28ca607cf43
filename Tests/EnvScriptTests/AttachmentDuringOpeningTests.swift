@testable import Containers
import EnvScript
import Foundation
import LuaBridge
import TestSupport
import Testing

/// An attached host makes its control routes and server on a thread of its own while it opens, and
/// publishes its record last: whether the opening succeeds or fails, what other processes see is whole.
@Suite(.timeLimit(.minutes(10))) struct AttachmentDuringOpeningTests {
    @Test func aHostThatFailsToOpenLeavesNoLockSocketOrRecord() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let home = folder.url.appendingPathComponent("home")
        // A Lua state cannot be made in one byte: the opening fails after the attachment has begun.
        var configuration = HostConfiguration(home: home, appID: "tests", attachesToHome: true)
        configuration.lua.memoryLimit = 1
        #expect(throws: LuaError.self) { try EnvScriptHost(configuration: configuration) }

        let hostsFolder = home.appendingPathComponent(".envscript-containers/hosts").path
        let left = (try? FileManager.default.contentsOfDirectory(atPath: hostsFolder)) ?? []
        #expect(left.isEmpty, "the failed opening left \(left) in the hosts folder")
        #expect(try AttachedHosts(home: home).live().isEmpty)
    }

    @Test func aHostIsReachableOnceItHasOpened() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let home = folder.url.appendingPathComponent("home")
        let host = try EnvScriptHost(configuration: HostConfiguration(home: home, appID: "tests", attachesToHome: true))
        defer { host.close() }
        let record = try #require(try AttachedHosts(home: home).live().first)
        #expect(record.id == host.attachedHostRecord?.id)
        // The socket is private and answers for the host from the first request.
        var status = stat()
        #expect(stat(record.socketPath, &status) == 0 && status.st_mode & 0o777 == 0o600)
        let connection = try RawSocketConnection(path: record.socketPath)
        try connection.send("GET /v1/containers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let answer = connection.readToEnd(timeout: 60)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        // The answer 405 knows the routes (their table is taken after the host has opened).
        let trace = try RawSocketConnection(path: record.socketPath)
        try trace.send("TRACE /v1/containers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let refused = trace.readToEnd(timeout: 60)
        #expect(refused.hasPrefix("HTTP/1.1 405") && refused.lowercased().contains("allow: get, post"), "\(refused)")
    }
}
