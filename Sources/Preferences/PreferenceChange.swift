/// A change of one key of a ``PreferencesStore``, as delivered to observers.
public struct PreferenceChange: Sendable, Hashable {
    /// Why the value changed.
    public enum Reason: Sendable, Hashable {
        /// Set or removed through this store.
        case set
        /// Different after ``PreferencesStore/reload()`` re-read the file (for example after a container switch).
        case reload
    }

    /// The key that changed.
    public let key: String
    /// The value before the change, nil if the key was absent.
    package let oldValue: PreferenceValue?
    /// The value after the change, nil if the key was removed.
    public let newValue: PreferenceValue?
    /// Why it changed.
    public let reason: Reason

    /// Creates a change record.
    public init(key: String, oldValue: PreferenceValue?, newValue: PreferenceValue?, reason: Reason) {
        self.key = key
        self.oldValue = oldValue
        self.newValue = newValue
        self.reason = reason
    }
}
