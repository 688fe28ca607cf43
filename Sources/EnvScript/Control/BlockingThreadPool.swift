import Foundation

/// Threads for work that blocks: a job goes to an idle thread, or to a new one when none is idle, so a
/// job that waits — for a lock, for another process — never holds up the jobs behind it. A thread
/// with nothing to do for ``idleLifetime`` ends; the pool keeps no thread while it has no work.
final class BlockingThreadPool: @unchecked Sendable {
    /// How long a thread waits for a new job before it ends.
    let idleLifetime: TimeInterval
    private let label: String
    /// Guards the fields below; idle threads wait on it.
    private let condition = NSCondition()
    /// Jobs no thread has taken yet: rarely more than a few, as every job beyond the idle threads
    /// starts a thread of its own.
    private var jobs: [@Sendable () -> Void] = []
    private var idleThreads = 0
    private var threadsStarted = 0

    /// A pool whose threads are named `label` (its first 15 bytes, the kernel's limit).
    init(label: String, idleLifetime: TimeInterval = 10) {
        self.label = label
        self.idleLifetime = idleLifetime
    }

    /// Runs `job` on a thread of the pool, as soon as possible, in no particular order with others.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        // An idle thread woken but not yet at work still counts as idle: at worst one thread too many.
        let startsThread = jobs.count > idleThreads
        if startsThread { threadsStarted += 1 } else { condition.signal() }
        condition.unlock()
        if startsThread {
            Thread.detachNewThread { [self] in
                // The kernel's name (at most 15 bytes), as `top -H`, `gdb` and /proc show it.
                Thread.current.name = label
                work()
            }
        }
    }

    /// How many threads the pool has started so far (for tests and diagnostics).
    var startedThreadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threadsStarted
    }

    /// How many threads wait for a job now (for tests and diagnostics).
    var idleThreadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return idleThreads
    }

    /// Takes jobs until none comes for ``idleLifetime``.
    private func work() {
        condition.lock()
        while true {
            while jobs.isEmpty {
                idleThreads += 1
                let woken = condition.wait(until: Date(timeIntervalSinceNow: idleLifetime))
                idleThreads -= 1
                if !woken && jobs.isEmpty {
                    condition.unlock()
                    return
                }
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
            condition.lock()
        }
    }
}
