import NIOCore

/// A task executor over a NIO event loop, for the control server's tasks.
///
/// A host is opened and closed from synchronous code that waits for its server to start and stop;
/// when that code itself runs on Swift's cooperative pool (a test, an async app) and the server's
/// tasks needed the same pool, a small machine would have no thread left to run them. Tasks that
/// prefer this executor run on the event loop that also does the server's I/O, never waiting for the
/// pool and without a thread hop per step; nothing they run blocks (host work goes to
/// ``BlockingWork``).
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
