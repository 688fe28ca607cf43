@testable import EnvScript
@testable import EnvScriptControl
import Foundation
import Locking
import Testing

/// A command that writes the stores and ends tells the running hosts before it goes: its last flush
/// waits for an announcement already on its way (sent by the short timer after a write), instead of
/// finding nothing pending and letting the process exit under it.
@Suite struct StoreChangeAnnouncerTests {
    @Test func flushWaitsForAnAnnouncementUnderWay() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let answered = Locked(0)
        let announcer = StoreChangeAnnouncer(delay: .milliseconds(1)) {
            started.signal()
            release.wait()
            answered.withLock { $0 += 1 }
        }
        announcer.noteWrite()
        // The timer's announcement is under way, waiting for its hosts' answers.
        #expect(started.wait(timeout: .now() + 10) == .success)
        let flushed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            announcer.flush()
            flushed.signal()
        }
        #expect(flushed.wait(timeout: .now() + 0.3) == .timedOut, "flush returned while the hosts had not answered")
        release.signal()
        #expect(flushed.wait(timeout: .now() + 10) == .success)
        #expect(answered.withLock { $0 } == 1, "nothing was left pending, so nothing more is sent")
    }

    @Test func writesDuringAnAnnouncementAreSentByTheFlush() throws {
        let calls = Locked(0)
        let first = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let announcer = StoreChangeAnnouncer(delay: .seconds(60)) {
            let number = calls.withLock { calls in
                calls += 1
                return calls
            }
            if number == 1 {
                first.signal()
                release.wait()
            }
        }
        announcer.noteWrite()
        Thread.detachNewThread { announcer.flush() }
        #expect(first.wait(timeout: .now() + 10) == .success)
        // A write while the first announcement waits: the next flush sends it, after the first.
        announcer.noteWrite()
        release.signal()
        announcer.flush()
        #expect(calls.withLock { $0 } == 2)
    }
}
