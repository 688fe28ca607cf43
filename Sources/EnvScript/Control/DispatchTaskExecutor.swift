import Dispatch

/// A task executor over a dispatch queue of its own, for the control server's tasks.
///
/// A host is opened and closed from synchronous code that waits for its server to start and stop;
/// when that code itself runs on Swift's cooperative pool (a test, an async app) and the server's
/// tasks needed the same pool, a small machine would have no thread left to run them. Tasks that
/// prefer this executor never wait for the pool.
final class DispatchTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
