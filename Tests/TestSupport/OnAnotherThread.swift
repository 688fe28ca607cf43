import Foundation

/// Runs `body` on a thread of its own — not one of Swift's cooperative pool — and returns its result.
///
/// For blocking work inside an async test (waiting for a server to stop, for a child process, for a
/// lock): on a small machine the pool has two threads, and blocking one of them can starve the very
/// tasks the work waits for.
package func onAnotherThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
