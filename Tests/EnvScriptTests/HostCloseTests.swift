import Dispatch
import Foundation
import TestSupport
import Testing

/// Closing attached hosts from async code: `close()` blocks until the host's control server has
/// stopped, so what stops the server must not need the cooperative pool that those closes occupy.
@Suite struct HostCloseTests {
    /// Twelve hosts closed at once from tasks of the cooperative pool (two threads on a small machine),
    /// every one of them blocked in `close()`. A shutdown started in a task of that pool (Hummingbird's
    /// graceful shutdown is) waits for its five-second timeout, pool-width hosts at a time: a minute.
    @Test func hostsClosedAtOnceFromAsyncCodeStopWithoutWaitingForThePool() async throws {
        let count = 12
        let fixtures = try (0..<count).map { _ in try HostFixture() }
        let closed = DispatchSemaphore(value: 0)
        for fixture in fixtures {
            let host = fixture.host
            Task.detached {
                host.close()
                closed.signal()
            }
        }
        let closedInTime = try await onAnotherThread {
            let deadline = DispatchTime.now() + 20
            return (0..<count).count { _ in closed.wait(timeout: deadline) == .success }
        }
        #expect(closedInTime == count, "only \(closedInTime) of \(count) hosts closed within 20 s")
    }
}
