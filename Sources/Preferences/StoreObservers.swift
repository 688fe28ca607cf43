import Locking
import Synchronization

/// The observers of a ``PreferencesStore``: those of every key, and those of one key each, kept apart so
/// a change reaches only its own key's observers, however many keys are observed.
///
/// The list of one key is shared by everyone who observes the key or holds it as a
/// ``PreferencesStore/Key``, and stays while one of them does: a change made through a held key
/// reaches that list without a look-up, and a change made by name finds the same list.
final class StoreObservers: Sendable {
    /// The list of one key and how many observations and held keys use it.
    private struct Shared {
        let list: ObserverList<PreferenceChange>
        var users: Int
    }

    private let ofEveryKey = ObserverList<PreferenceChange>()
    private let byKey = Locked<[String: Shared]>([:])
    /// How many observers of one key are registered, so a change by name that nobody observes skips the
    /// look-up.
    private let keyObserverCount = Atomic<Int>(0)

    /// True when nobody observes any key.
    var isEmpty: Bool { ofEveryKey.isEmpty && keyObserverCount.load(ordering: .acquiring) == 0 }

    /// The observer list of `key`, shared with its other users; each call must be matched by one
    /// ``stopUsing(key:)``.
    func startUsing(key: String) -> ObserverList<PreferenceChange> {
        byKey.withLock { lists in
            if lists[key] == nil { lists[key] = Shared(list: ObserverList(), users: 0) }
            lists[key]!.users += 1
            return lists[key]!.list
        }
    }

    /// Ends one use of `key`'s list; the list leaves with its last user.
    func stopUsing(key: String) {
        byKey.withLock { lists in
            lists[key]?.users -= 1
            if lists[key]?.users == 0 { lists.removeValue(forKey: key) }
        }
    }

    /// Registers `handler` for the changes of `key`, or of every key when `key` is nil.
    func add(key: String?, _ handler: @escaping @Sendable (PreferenceChange) -> Void) -> PreferencesObservation {
        guard let key else { return ofEveryKey.add(handler) }
        let list = startUsing(key: key)
        let registration = add(to: list, handler)
        return PreferencesObservation { [weak self] in
            registration.cancel()
            self?.stopUsing(key: key)
        }
    }

    /// Registers `handler` in `list`, a list of one key from ``startUsing(key:)`` whose user outlives
    /// the registration.
    func add(
        to list: ObserverList<PreferenceChange>, _ handler: @escaping @Sendable (PreferenceChange) -> Void
    ) -> PreferencesObservation {
        let registration = list.add(handler)
        keyObserverCount.add(1, ordering: .releasing)
        return PreferencesObservation { [weak self] in
            // The handler is let go of outside every lock: whatever it held may end observations too.
            registration.cancel()
            self?.keyObserverCount.subtract(1, ordering: .releasing)
        }
    }

    /// Calls the observers of `change`'s key — those of `keyList` when the caller holds it, else those
    /// found by name — then those of every key, outside every lock.
    func notify(_ change: PreferenceChange, keyList: ObserverList<PreferenceChange>? = nil) {
        if let keyList {
            if !keyList.isEmpty { keyList.notify(change) }
        } else if keyObserverCount.load(ordering: .acquiring) > 0,
                  let list = byKey.withLock({ $0[change.key]?.list }) {
            list.notify(change)
        }
        if !ofEveryKey.isEmpty { ofEveryKey.notify(change) }
    }
}
