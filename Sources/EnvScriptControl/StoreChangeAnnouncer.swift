import Foundation
import Locking

/// Tells the other hosts attached to the home that this process wrote the container's stores, so that
/// a running application sees a flag set from the command line without waiting for its next switch.
///
/// Writes come in bursts (a script setting two hundred flags), so announcements are coalesced: the
/// first write schedules one a moment later, and writes until then ride along. ``flush()`` sends a
/// pending one at once, before the host closes, and returns only once no announcement is under way:
/// a command that ends right after a write has told the running hosts, and they have answered.
final class StoreChangeAnnouncer: Sendable {
    private let announce: @Sendable () -> Void
    private let delay: DispatchTimeInterval
    private let pending = Locked(false)
    /// Every announcement is sent on this queue, one at a time, so ``flush()`` waits for one under way.
    private let queue = DispatchQueue(label: "envscript.store-announcements")

    /// Announces with `announce` (which waits for the hosts' answers) at most `delay` after a write.
    init(delay: DispatchTimeInterval = .milliseconds(50), announce: @escaping @Sendable () -> Void) {
        self.announce = announce
        self.delay = delay
    }

    /// Announces to the hosts `participants` lists.
    convenience init(participants: RemoteHostParticipants) {
        self.init { participants.announceStoreChanges() }
    }

    /// Notes a write; an announcement follows shortly.
    func noteWrite() {
        let schedule = pending.withLock { pending in
            defer { pending = true }
            return !pending
        }
        if schedule { queue.asyncAfter(deadline: .now() + delay) { [self] in sendPending() } }
    }

    /// Sends the pending announcement, if any, after the one under way, and waits for the hosts' answers
    /// to both. Must not be called from the announcement itself.
    func flush() {
        queue.sync { sendPending() }
    }

    /// Runs on ``queue``.
    private func sendPending() {
        let due = pending.withLock { pending in
            defer { pending = false }
            return pending
        }
        if due { announce() }
    }
}
