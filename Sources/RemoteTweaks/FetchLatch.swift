import Dispatch
import Foundation
import Locking

/// Whether a fetch has ended since a starting point, for callers that wait on it with a deadline —
/// from a Swift task (without blocking a thread of the cooperative pool) or from plain threads.
///
/// ``open()`` lets every waiter through, now and later, until ``reset()``.
final class FetchLatch: Sendable {
    /// A waiter, from the moment it registers until it is let through or gives up.
    private enum Waiter {
        /// Registered, its continuation not yet installed.
        case expected
        /// Waiting; called once with whether the latch opened.
        case waiting(@Sendable (Bool) -> Void)
        /// Gave up (deadline or cancellation) before its continuation was installed.
        case gaveUp
    }

    private struct State {
        var isOpen = false
        var nextID: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
    }

    private let state = Locked(State())

    /// Whether the latch is open.
    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the latch and lets every waiter through.
    func open() {
        let released = state.withLock { state -> [@Sendable (Bool) -> Void] in
            state.isOpen = true
            var released: [@Sendable (Bool) -> Void] = []
            for (id, waiter) in state.waiters {
                if case .waiting(let resume) = waiter {
                    released.append(resume)
                    state.waiters[id] = nil
                }
            }
            return released
        }
        for resume in released { resume(true) }
    }

    /// Closes the latch; later waiters wait for the next ``open()``.
    func reset() {
        state.withLock { $0.isOpen = false }
    }

    /// Waits until the latch is open; false when `timeout` passed first or the task was cancelled.
    func wait(timeout: Duration) async -> Bool {
        guard let id = register() else { return true }
        let deadline = Task { [self] in
            try? await Task.sleep(for: timeout)
            giveUp(id)
        }
        defer { deadline.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                install(id) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// Blocks the calling thread until the latch is open; false when `timeout` passed first.
    /// Never call it from a Swift task: use ``wait(timeout:)`` there.
    func waitBlocking(timeout: Duration) -> Bool {
        guard let id = register() else { return true }
        let signal = DispatchSemaphore(value: 0)
        let outcome = Locked(false)
        install(id) { opened in
            outcome.withLock { $0 = opened }
            signal.signal()
        }
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        if signal.wait(timeout: .now() + .nanoseconds(Int(clamping: max(nanoseconds, 0)))) == .timedOut {
            giveUp(id)
            signal.wait()  // giveUp or open resumed it; either way it has run
        }
        return outcome.withLock { $0 }
    }

    /// Registers a waiter; nil when the latch is open already.
    private func register() -> UInt64? {
        state.withLock { state in
            if state.isOpen { return nil }
            state.nextID += 1
            state.waiters[state.nextID] = .expected
            return state.nextID
        }
    }

    /// Installs the waiter's resumption, or runs it at once when the latch opened or it gave up meanwhile.
    private func install(_ id: UInt64, _ resume: @escaping @Sendable (Bool) -> Void) {
        let now = state.withLock { state -> Bool? in
            switch state.waiters[id] {
            case .expected:
                if state.isOpen {
                    state.waiters[id] = nil
                    return true
                }
                state.waiters[id] = .waiting(resume)
                return nil
            case .gaveUp:
                state.waiters[id] = nil
                return false
            case .waiting, nil:
                // Not reachable: only install() makes a waiter `.waiting`, and only then can it be removed.
                return true
            }
        }
        if let now { resume(now) }
    }

    /// Lets a waiter go with false, unless it was let through already.
    private func giveUp(_ id: UInt64) {
        let resume = state.withLock { state -> (@Sendable (Bool) -> Void)? in
            switch state.waiters[id] {
            case .expected:
                state.waiters[id] = .gaveUp
                return nil
            case .waiting(let resume):
                state.waiters[id] = nil
                return resume
            case .gaveUp, nil:
                return nil
            }
        }
        resume?(false)
    }
}
