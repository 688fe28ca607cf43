import Dispatch
import Foundation
import Locking

/// Real threads for tests of code used from many threads at once.
package enum ThreadGroup {
    /// Runs each body on a thread of its own and waits, without blocking the caller's thread, until
    /// all have returned or `timeout` has passed. Returns whether all returned in time; threads still
    /// running after a timeout (a deadlock) are left behind, so the test fails rather than the suite.
    package static func run(_ bodies: [@Sendable () -> Void], timeout: Duration) async -> Bool {
        let group = DispatchGroup()
        for body in bodies {
            group.enter()
            Thread.detachNewThread {
                body()
                group.leave()
            }
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let outcome = FirstOutcome(continuation)
            group.notify(queue: .global()) { outcome.resume(true) }
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { outcome.resume(false) }
        }
    }

    /// Resumes a continuation with whichever outcome comes first.
    private final class FirstOutcome: Sendable {
        private let continuation: Locked<CheckedContinuation<Bool, Never>?>

        init(_ continuation: CheckedContinuation<Bool, Never>) {
            self.continuation = Locked(continuation)
        }

        func resume(_ finished: Bool) {
            let waiting = continuation.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(returning: finished)
        }
    }
}
