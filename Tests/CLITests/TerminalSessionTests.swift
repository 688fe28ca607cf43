import Foundation
import TestSupport
import Testing

/// The tmux sessions the interactive tests run in: the tmux server they start outlives the test and
/// must hold none of the test's descriptors.
@Suite struct TerminalSessionTests {
    /// A pipe whose write end the test closes must reach end-of-file at once. A tmux server that
    /// inherited the write end would keep the pipe open — as it kept a control-API client connected to
    /// its server after the test had closed it.
    @Test func theTmuxServerHoldsNoneOfTheTestsDescriptors() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let terminal = try TerminalSession(["sleep", "30"], in: FileManager.default.temporaryDirectory)
        close(ends[1])
        defer { close(ends[0]) }
        var reader = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        let ready = poll(&reader, 1, 10_000)
        var byte: UInt8 = 0
        #expect(ready == 1 && read(ends[0], &byte, 1) == 0, "the pipe stayed open after the test closed its write end")
        withExtendedLifetime(terminal) {}
    }
}
