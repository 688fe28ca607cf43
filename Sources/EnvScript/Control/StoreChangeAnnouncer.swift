import Foundation
import Locking

/// Tells the other hosts attached to the home that this process wrote the container's stores, so that
/// a running application sees a flag set from the command line without waiting for its next switch.
///
/// Writes come in bursts (a script setting two hundred flags), so announcements are coalesced: the
/// first write schedules one a moment later, and writes until then ride along. ``flush()`` sends a
/// pending one at once, before the host closes.
final class StoreChangeAnnouncer: Sendable {
    private let participants: RemoteHostParticipants
    private let delay: DispatchTimeInterval
    private let pending = Locked(false)
    private let queue = DispatchQueue(label: "envscript.store-announcements")

    init(participants: RemoteHostParticipants, delay: DispatchTimeInterval = .milliseconds(50)) {
        self.participants = participants
        self.delay = delay
    }

    /// Notes a write; an announcement follows shortly.
    func noteWrite() {
        let schedule = pending.withLock { pending in
            defer { pending = true }
            return !pending
        }
        if schedule { queue.asyncAfter(deadline: .now() + delay) { [self] in flush() } }
    }

    /// Sends the pending announcement, if any, and waits for the hosts' answers.
    func flush() {
        let due = pending.withLock { pending in
            defer { pending = false }
            return pending
        }
        if due { participants.announceStoreChanges() }
    }
}
