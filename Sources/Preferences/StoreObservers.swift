import Locking
import Synchronization

/// The observers of a ``PreferencesStore``: those of every key, and those of one key each, kept apart so
/// a change reaches only its own key's observers, however many keys are observed.
final class StoreObservers: Sendable {
    private let ofEveryKey = ObserverList<PreferenceChange>()
    /// A list for each key observed now; a list leaves when its last observer does.
    private let byKey = Locked<[String: ObserverList<PreferenceChange>]>([:])
    /// How many observers of one key are registered, so a store nobody observes skips the look-up.
    private let keyObserverCount = Atomic<Int>(0)

    /// True when nobody observes any key.
    var isEmpty: Bool { ofEveryKey.isEmpty && keyObserverCount.load(ordering: .acquiring) == 0 }

    /// Registers `handler` for the changes of `key`, or of every key when `key` is nil.
    func add(key: String?, _ handler: @escaping @Sendable (PreferenceChange) -> Void) -> PreferencesObservation {
        guard let key else { return ofEveryKey.add(handler) }
        let (list, registration) = byKey.withLock { lists in
            let list = lists[key] ?? ObserverList()
            lists[key] = list
            keyObserverCount.add(1, ordering: .releasing)
            return (list, list.add(handler))
        }
        return PreferencesObservation { [weak self] in
            // The handler is let go of outside this lock: whatever it held may end observations too.
            registration.cancel()
            guard let self else { return }
            keyObserverCount.subtract(1, ordering: .releasing)
            byKey.withLock { lists in
                if list.isEmpty, lists[key] === list { lists.removeValue(forKey: key) }
            }
        }
    }

    /// Calls the observers of `change`'s key, then those of every key, outside every lock.
    func notify(_ change: PreferenceChange) {
        if keyObserverCount.load(ordering: .acquiring) > 0, let list = byKey.withLock({ $0[change.key] }) {
            list.notify(change)
        }
        if !ofEveryKey.isEmpty { ofEveryKey.notify(change) }
    }
}
