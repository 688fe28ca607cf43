@testable import EnvScript
@testable import EnvScriptControl
import Foundation
import TestSupport
import Testing

/// The threads the control API runs its blocking work on: a job that waits must never hold up the
/// jobs behind it, however many wait, and a pool with no work keeps no thread.
@Suite struct BlockingThreadPoolTests {
    /// Twenty-four jobs that can only finish together: each waits until all of them have started.
    /// A pool as wide as the machine (a concurrent `DispatchQueue` on Linux) takes about a second
    /// per job beyond the number of cores to get there.
    @Test func jobsThatWaitForEachOtherAllRunAtOnce() async throws {
        let pool = BlockingThreadPool(label: "es-pool-wait")
        let count = 24
        let started = Counter()
        let finished = DispatchGroup()
        let metEveryOther = Counter()
        for _ in 0..<count {
            finished.enter()
            pool.submit {
                started.next()
                let deadline = Date(timeIntervalSinceNow: 10)
                while started.value < count && Date() < deadline { usleep(1_000) }
                if started.value == count { metEveryOther.next() }
                finished.leave()
            }
        }
        let allFinished = try await onAnotherThread { finished.wait(timeout: .now() + 30) == .success }
        #expect(allFinished)
        #expect(metEveryOther.value == count, "only \(metEveryOther.value) of \(count) jobs saw every other one start")
    }

    /// A thread between jobs takes the next one instead of a new thread being started.
    @Test func anIdleThreadTakesTheNextJob() async throws {
        // Idle threads live long enough here that a test held up by a busy machine still finds its thread.
        let pool = BlockingThreadPool(label: "es-pool-reuse", idleLifetime: 600)
        for _ in 0..<5 {
            let done = DispatchSemaphore(value: 0)
            pool.submit { done.signal() }
            #expect(try await onAnotherThread { done.wait(timeout: .now() + 10) == .success })
            // The thread has signalled but may not be waiting yet: wait until it is.
            try await waitUntil("the pool's thread is idle") { pool.idleThreadCount == 1 }
        }
        #expect(pool.startedThreadCount == 1)
    }

    /// Threads idle for longer than their lifetime end; the next job starts a new one.
    @Test func idleThreadsEnd() async throws {
        let label = "es-pool-idle"
        let pool = BlockingThreadPool(label: label, idleLifetime: 0.2)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<3 {
            done.enter()
            pool.submit { release.wait(); done.leave() }
        }
        if try await !waitUntil("three threads of the pool are alive", { try Self.liveThreads(named: label) == 3 }) {
            let names = try Self.threadNames()
            Issue.record("the threads of this process: \(names)")
        }
        for _ in 0..<3 { release.signal() }
        #expect(try await onAnotherThread { done.wait(timeout: .now() + 10) == .success })
        try await waitUntil("the pool's idle threads have ended") { try Self.liveThreads(named: label) == 0 }

        let again = DispatchSemaphore(value: 0)
        pool.submit { again.signal() }
        #expect(try await onAnotherThread { again.wait(timeout: .now() + 10) == .success })
        #expect(pool.startedThreadCount == 4)
    }

    /// At its maximum the pool starts no more threads: the jobs beyond wait, and run on the threads
    /// that come free.
    @Test func aFullPoolQueuesJobsUntilAThreadComesFree() async throws {
        let label = "es-pool-full"
        let pool = BlockingThreadPool(label: label, maximumThreads: 3)
        let release = DispatchSemaphore(value: 0)
        let ran = Counter()
        let done = DispatchGroup()
        for _ in 0..<8 {
            done.enter()
            pool.submit { ran.next(); release.wait(); done.leave() }
        }
        try await waitUntil("three jobs run") { ran.value == 3 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(ran.value == 3, "a job ran beyond the pool's three threads")
        let live = try Self.liveThreads(named: label)
        let names = try Self.threadNames()
        #expect(live == 3, "\(live) threads named \(label) are alive: \(names)")
        for _ in 0..<8 { release.signal() }
        #expect(try await onAnotherThread { done.wait(timeout: .now() + 10) == .success })
        #expect(ran.value == 8)
        #expect(pool.startedThreadCount == 3)
    }

    /// Thread names are cut to the kernel's 15 bytes, never in the middle of a character — a longer
    /// name would be refused by the kernel and the threads left nameless.
    @Test func threadNamesFitTheKernelsLimit() {
        #expect(BlockingThreadPool.threadName("envscript.control.blocking") == "envscript.contr")
        #expect(BlockingThreadPool.threadName("short") == "short")
        #expect(BlockingThreadPool.threadName("ééééééééé") == "ééééééé")
        #expect(BlockingThreadPool.threadName("abcdefghijklmné") == "abcdefghijklmn")
    }

    /// The names of this process's threads, as the kernel lists them, and how many have each.
    private static func threadNames() throws -> [String: Int] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        var names: [String: Int] = [:]
        for task in tasks {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "?"
            names[comm.trimmingCharacters(in: .newlines), default: 0] += 1
        }
        return names
    }

    /// The threads of this process named `name`, as the kernel lists them.
    private static func liveThreads(named name: String) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        return tasks.count { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .newlines) == name
        }
    }
}
