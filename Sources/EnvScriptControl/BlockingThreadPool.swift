import Foundation
import Logging

/// Threads for work that blocks: a job goes to an idle thread, or to a new one when none is idle, so a
/// job that waits — for a lock, for another process — never holds up the jobs behind it. A thread
/// with nothing to do for ``idleLifetime`` ends; the pool keeps no thread while it has no work.
///
/// The pool stops growing at ``maximumThreads``: beyond that, jobs wait for a thread to come free (and
/// the first time it happens, the log says so), rather than the process running out of threads.
final class BlockingThreadPool: @unchecked Sendable {
    /// How long a thread waits for a new job before it ends.
    let idleLifetime: TimeInterval
    /// The most threads the pool runs at once.
    let maximumThreads: Int
    /// The threads' name, at most 15 bytes (the kernel's limit for a thread's name).
    let threadName: String
    private let logger = Logger(label: "envscript.threads")
    /// Guards the fields below; idle threads wait on it.
    private let condition = NSCondition()
    /// Jobs no thread has taken yet: rarely more than a few, as every job beyond the idle threads
    /// starts a thread of its own while the pool may grow.
    private var jobs: [@Sendable () -> Void] = []
    private var idleThreads = 0
    private var liveThreads = 0
    private var threadsStarted = 0
    private var saidFull = false

    /// A pool whose threads are named `label` (cut to the kernel's 15 bytes, as `top -H`, `gdb` and
    /// `/proc` show it).
    init(label: String, idleLifetime: TimeInterval = 10, maximumThreads: Int = 256) {
        threadName = Self.threadName(label)
        self.idleLifetime = idleLifetime
        self.maximumThreads = maximumThreads
    }

    /// Runs `job` on a thread of the pool, as soon as possible, in no particular order with others.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        // An idle thread woken but not yet at work still counts as idle: at worst one thread too many.
        let wantsThread = jobs.count > idleThreads
        let startsThread = wantsThread && liveThreads < maximumThreads
        let saysFull = wantsThread && !startsThread && !saidFull
        if startsThread {
            threadsStarted += 1
            liveThreads += 1
        } else {
            condition.signal()
        }
        if saysFull { saidFull = true }
        condition.unlock()
        if saysFull {
            logger.warning("all \(maximumThreads) threads for blocking work are busy: further work waits for one to come free")
        }
        if startsThread {
            Thread.detachNewThread { [self] in
                Self.nameCallingThread(threadName)
                work()
            }
        }
    }

    /// Names the calling thread for the kernel (`top -H`, `gdb`, `/proc`). On Linux straight through
    /// `/proc/thread-self/comm`: Foundation's `Thread.current.name`, with threads started at once, was
    /// seen naming another of them (and Swift's Glibc module does not show `pthread_setname_np`).
    private static func nameCallingThread(_ name: String) {
        #if os(Linux)
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = name.withCString { write(descriptor, $0, strlen($0)) }
        #else
        Thread.current.name = name
        #endif
    }

    /// `label` cut to at most 15 bytes of UTF-8 without splitting a character.
    static func threadName(_ label: String) -> String {
        var name = ""
        for character in label {
            guard name.utf8.count + String(character).utf8.count <= 15 else { break }
            name.append(character)
        }
        return name
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
                    liveThreads -= 1
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
