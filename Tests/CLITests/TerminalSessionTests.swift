import Foundation
import TestSupport
import Testing

/// The tmux sessions the interactive tests run in: the tmux server they start outlives the test and
/// must hold none of the test's descriptors.
@Suite(.timeLimit(.minutes(15))) struct TerminalSessionTests {
    /// A pipe open in the test while the session starts is not among the tmux server's descriptors. A
    /// server that inherited it would keep it open after the test closed it — as it kept a control-API
    /// client connected to its server after the test had closed that. The server's descriptors are read
    /// from /proc, so another test's child inheriting the pipe meanwhile cannot change the answer.
    @Test func theTmuxServerHoldsNoneOfTheTestsDescriptors() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let pipeName = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        #expect(pipeName.hasPrefix("pipe:"))
        let terminal = try TerminalSession(["sleep", "30"], in: FileManager.default.temporaryDirectory)
        let server = try terminal.serverPID()
        let serverDescriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server)/fd")
        #expect(!serverDescriptors.isEmpty)
        let held = serverDescriptors.filter { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server)/fd/\(descriptor)")) == pipeName
        }
        #expect(held.isEmpty, "the tmux server (pid \(server)) holds the test's pipe as descriptors \(held)")
    }

    /// A session that goes takes its tmux server, and the program in it, along.
    @Test func theServerEndsWithTheSession() async throws {
        var terminal: TerminalSession? = try TerminalSession(["sleep", "300"], in: FileManager.default.temporaryDirectory)
        let server = try #require(try terminal?.serverPID())
        #expect(kill(server, 0) == 0, "the server runs while the session is there")
        terminal = nil
        try await waitUntil("the tmux server (pid \(server)) has ended") {
            // Gone, or a zombie: a server started by a client that ended is re-parented and reaped by init.
            let status = try? String(contentsOfFile: "/proc/\(server)/status", encoding: .utf8)
            return status == nil || status!.contains("State:\tZ")
        }
    }
}
