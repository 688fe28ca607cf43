public import Containers
import Foundation
import Synchronization

/// Serialises every use of a host's Lua state.
///
/// Lua is single-threaded, while the engines call providers, decryptors and hooks from whatever thread
/// uses them. The lock is recursive because Lua calls Swift, which may call Lua again on the same thread.
public final class HostLock: ChangeSerializer, @unchecked Sendable {
    private let lock = NSRecursiveLock()
    /// How many times the thread holding ``lock`` holds it; read and written only by that thread.
    private var depth = 0
    /// When a thread holding the lock may let go of it to wait for another process's change, and what
    /// it checks once it has the lock back; set once by the host before it is shared.
    private var rule = LettingGoRule.never
    /// How many threads are waiting in ``withLock(_:)`` for another to let go.
    private let waiting = Atomic<Int>(0)

    /// Creates an unlocked lock.
    package init() {}

    /// Whether a thread waits for the lock now: work done in turns (a long answer made a slice at a
    /// time) lets it through before taking the lock again.
    package var hasWaiters: Bool { waiting.load(ordering: .relaxed) > 0 }

    /// Whether the calling thread holds the lock now (a hook, a script, code inside ``withLock(_:)``).
    package var isHeldByCurrentThread: Bool {
        // Succeeds at once when this thread holds it already (it is recursive) or nobody does.
        guard lock.try() else { return false }
        defer { lock.unlock() }
        return depth > 0
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        if !lock.try() {
            waiting.add(1, ordering: .relaxed)
            lock.lock()
            waiting.subtract(1, ordering: .relaxed)
        }
        depth += 1
        defer {
            depth -= 1
            lock.unlock()
        }
        return try body()
    }

    /// Runs `body` holding the lock if it can be had within `seconds`; nil, having run nothing, if not
    /// (a script holds it for longer). A host takes its part in another process's change so, while
    /// that process still waits for it.
    package func withLock<Result>(waitingAtMost seconds: Double, _ body: () throws -> Result) rethrows -> Result? {
        guard lock.lock(before: Date(timeIntervalSinceNow: max(0, seconds))) else { return nil }
        depth += 1
        defer {
            depth -= 1
            lock.unlock()
        }
        return try body()
    }

    /// Runs `wait` without the lock when this thread holds it and the host's rule allows: a control request
    /// waiting for another process's switch then lets that process's request for this host's part (its
    /// hooks take this lock) through, instead of holding it up until its timeout. A thread inside a call
    /// into Lua never lets go: the script stands on the state.
    package func lettingGo(while wait: () throws -> Void) throws {
        // Succeeds at once when this thread holds the lock already (it is recursive) or nobody does.
        guard lock.try() else { return try wait() }
        let held = depth
        guard held > 0, rule.allowsLettingGo() else {
            lock.unlock()
            return try wait()
        }
        depth = 0
        for _ in 0...held { lock.unlock() }
        let waited = Result { try wait() }
        for _ in 0..<held { lock.lock() }
        depth = held
        try waited.get()
        try rule.checkAfterTakingBack()
    }

    /// Sets when a holder may let go while it waits (see ``lettingGo(while:)``); called by the host
    /// before the lock is used by any other thread.
    func allowLettingGo(_ rule: LettingGoRule) {
        withLock { self.rule = rule }
    }
}

/// When a thread holding a ``HostLock`` may let go of it for a wait, and what it checks when it has the
/// lock back; both are called with the lock held.
struct LettingGoRule {
    var allowsLettingGo: () -> Bool
    var checkAfterTakingBack: () throws -> Void

    /// Holders never let go.
    static var never: LettingGoRule { LettingGoRule(allowsLettingGo: { false }, checkAfterTakingBack: {}) }
}
