extension PreferencesStore {
    /// One key of a store, held by whoever writes and observes it often (a stored state's slot).
    ///
    /// Changes made through it reach the key's observers directly, where a change made by name looks
    /// them up; otherwise it behaves as its name. Get one with ``PreferencesStore/key(_:)``; it belongs
    /// to the store that made it.
    package final class Key: Sendable {
        /// The key's name in the store.
        package let name: String
        /// The key's observer list, shared with observers registered by name.
        let observers: ObserverList<PreferenceChange>
        /// The observers of the store that made it.
        let storeObservers: StoreObservers

        fileprivate init(name: String, storeObservers: StoreObservers) {
            self.name = name
            self.storeObservers = storeObservers
            self.observers = storeObservers.startUsing(key: name)
        }

        deinit { storeObservers.stopUsing(key: name) }
    }

    /// The key `name` of this store, to hold.
    package func key(_ name: String) -> Key {
        Key(name: name, storeObservers: observers)
    }

    /// Stores `value` under `key`; nil removes it. The same as ``set(_:forKey:)``, with the key's
    /// observers reached without a look-up.
    package func set(_ value: PreferenceValue?, for key: Key) throws {
        precondition(key.storeObservers === observers, "the key '\(key.name)' belongs to another store")
        try set(value, forKey: key.name, keyObservers: key.observers)
    }

    /// Calls `handler` after each change of `key`, including changes found by ``reload()``, whether it
    /// was made through `key` or by name. Keep the returned observation: dropping it removes the observer.
    package func observe(
        _ key: Key, _ handler: @escaping @Sendable (PreferenceChange) -> Void
    ) -> PreferencesObservation {
        precondition(key.storeObservers === observers, "the key '\(key.name)' belongs to another store")
        // The observation holds the key, so the list stays shared while it is registered.
        let registration = observers.add(to: key.observers, handler)
        return PreferencesObservation { withExtendedLifetime(key) { registration.cancel() } }
    }
}
