import Locking
import Logging
import Preferences
public import Synchronization

/// Where the failures of non-throwing state access go: the log, then the application's failure
/// observers. One reporter per ``Application``, shared by its slots.
///
/// A failure is reported once, not on every read that meets it: the same failure of the same key
/// again is reported only after that key was written or reset successfully (``clear(key:)``).
@usableFromInline
final class StateFailureReporter: Sendable {
    let logger: Logger
    let observers = ObserverList<StateFailure>()
    /// The last failure reported per key, by its description.
    private let reported = Locked<[String: String]>([:])
    /// How many keys have a failure on record, so a successful write of a healthy key costs one load.
    @usableFromInline let reportedCount = Atomic<Int>(0)

    init(logger: Logger) {
        self.logger = logger
    }

    /// Logs `failure` at error level and tells the observers, unless it is the one last reported for
    /// its key; call it outside every lock.
    func report(_ failure: StateFailure) {
        let text = failure.description
        let isNew = reported.withLock { reported in
            guard reported[failure.key] != text else { return false }
            reported[failure.key] = text
            reportedCount.store(reported.count, ordering: .releasing)
            return true
        }
        guard isNew else { return }
        logger.error("\(text)", metadata: ["key": "\(failure.key)", "kind": "\(failure.kind)"])
        if !observers.isEmpty { observers.notify(failure) }
    }

    /// Forgets the failure on record for `key`: the key works again, so its next failure is reported.
    @inlinable func clear(key: String) {
        guard reportedCount.load(ordering: .acquiring) > 0 else { return }
        clearSlowly(key: key)
    }

    @usableFromInline func clearSlowly(key: String) {
        reported.withLock { reported in
            reported[key] = nil
            reportedCount.store(reported.count, ordering: .releasing)
        }
    }
}
