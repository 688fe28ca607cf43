/// One declared piece of state as the ``Application`` keeps it, whatever its kind and type: what
/// keyed access, reset and the container switch need.
protocol StateSlot: AnyObject, Sendable {
    /// The key it was declared under.
    var key: String { get }
    /// Where it lives.
    var kind: StateKind { get }
    /// The declared value type.
    var valueType: any Sendable.Type { get }

    /// The current value.
    func readAny() throws -> any Sendable
    /// Sets the value; throws ``AppStateError/Code/typeMismatch`` for another type.
    func writeAny(_ value: any Sendable) throws
    /// Sets the value back to the initial one (removing what was stored).
    func reset() throws
    /// Forgets what was read from the previous container, so the next read comes from the new one.
    func containerDidSwitch()
}

/// Memory state, which has no files to swap: the ``Application`` keeps the values of the container left
/// and gives back those of the container entered.
protocol MemoryStateSlot: StateSlot {
    /// The value to keep for the container being left, or nil when it is still the initial one.
    func valueToKeep() -> (any Sendable)?
    /// Takes the value kept for the container entered, or the initial value when there is none.
    func restore(_ kept: (any Sendable)?)
}

extension StateSlot {
    /// The declared value type's full name, for error messages.
    var valueTypeName: String { String(reflecting: valueType) }

    /// The error for a value of the wrong type given to ``writeAny(_:)``.
    func typeMismatch(_ value: any Sendable) -> AppStateError {
        .typeMismatch(key: key, declared: valueTypeName, requested: String(reflecting: type(of: value)))
    }
}
