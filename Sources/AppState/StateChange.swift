/// Why a piece of state changed.
public enum StateChangeReason: Sendable, Hashable {
    /// Set, updated or reset through the application (or, for stored state, written to its preferences
    /// store by anyone).
    case changed
    /// Read anew after a container switch (or, for stored state, a reload of its preferences file).
    case reloaded
}

/// A change of one piece of state, as delivered to its observers.
public struct StateChange<Value: Sendable>: Sendable {
    /// The state's key.
    public let key: String
    /// The value after the change.
    public let newValue: Value
    /// Why it changed.
    public let reason: StateChangeReason

    /// Creates a change record.
    package init(key: String, newValue: Value, reason: StateChangeReason) {
        self.key = key
        self.newValue = newValue
        self.reason = reason
    }
}

/// A change of some piece of state, without its value: what an observer of the whole ``Application``
/// hears (for example a scripting runtime that then reads the new value by key).
public struct StateKeyChange: Sendable, Hashable {
    /// The state's key.
    public let key: String
    /// Where the state lives.
    public let kind: StateKind
    /// Why it changed.
    public let reason: StateChangeReason

    /// Creates a change record.
    package init(key: String, kind: StateKind, reason: StateChangeReason) {
        self.key = key
        self.kind = kind
        self.reason = reason
    }
}
