/// A change of one key of a ``PreferencesStore``, as delivered to observers.
package struct PreferenceChange: Sendable, Hashable {
    /// Why the value changed.
    package enum Reason: Sendable, Hashable {
        /// Set or removed through this store.
        case set
        /// Different after ``PreferencesStore/reload()`` re-read the file (for example after a container switch).
        case reload
    }

    /// The key that changed.
    package let key: String
    /// The value before the change, nil if the key was absent.
    package let oldValue: PreferenceValue?
    /// The value after the change, nil if the key was removed.
    package let newValue: PreferenceValue?
    /// Why it changed.
    package let reason: Reason

    /// Creates a change record.
    package init(key: String, oldValue: PreferenceValue?, newValue: PreferenceValue?, reason: Reason) {
        self.key = key
        self.oldValue = oldValue
        self.newValue = newValue
        self.reason = reason
    }
}
