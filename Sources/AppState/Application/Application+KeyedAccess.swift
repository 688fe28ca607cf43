extension Application {
    /// The declared keys, in the order of declaration.
    package var declaredKeys: [String] {
        registry.withLock { $0.keys }
    }

    /// The kind of the state declared under `key`, or nil when there is none.
    public func kind(ofKey key: String) -> StateKind? {
        slot(forKey: key)?.kind
    }

    /// The value type of the state declared under `key`, or nil when there is none — for callers that
    /// convert values they know by key only, such as a script's table into a `Codable` struct.
    package func valueType(ofKey key: String) -> (any Sendable.Type)? {
        slot(forKey: key)?.valueType
    }

    /// The current value of the state declared under `key`, whatever its type — for callers that know
    /// states by key only, such as a scripting runtime.
    ///
    /// - Throws: ``AppStateError/Code/unknownKey``, and the errors of reading that kind of state.
    public func value(forKey key: String) throws -> any Sendable {
        try requireSlot(key).readAny()
    }

    /// The current value of the state declared under `key`, as `type`.
    ///
    /// - Throws: ``AppStateError/Code/typeMismatch`` when it holds another type.
    public func value<Value: Sendable>(forKey key: String, as type: Value.Type = Value.self) throws -> Value {
        let slot = try requireSlot(key)
        guard let value = try slot.readAny() as? Value else {
            throw AppStateError.typeMismatch(
                key: key, declared: slot.valueTypeName, requested: String(reflecting: Value.self))
        }
        return value
    }

    /// Sets the state declared under `key`.
    ///
    /// - Throws: ``AppStateError/Code/unknownKey``, ``AppStateError/Code/typeMismatch``
    ///   when `value` is not of the declared type, and the errors of writing that kind of state.
    public func setValue(_ value: any Sendable, forKey key: String) throws {
        try requireSlot(key).writeAny(value)
    }

    /// Sets the state declared under `key` back to its initial value, removing what was stored.
    ///
    /// - Throws: ``AppStateError/Code/unknownKey``, and the errors of removing that kind of state.
    public func reset(key: String) throws {
        try requireSlot(key).reset()
    }

    /// Sets every declared state back to its initial value. A state that fails does not stop the others;
    /// the first error is thrown once all were tried.
    public func resetAll() throws {
        var firstError: (any Error)?
        for slot in allSlots() {
            do {
                try slot.reset()
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// Calls `handler` after each change of any state, with its key and kind (read the value by key if
    /// needed). Keep the returned observation: cancelling or dropping it removes the observer.
    public func observe(_ handler: @escaping @Sendable (StateKeyChange) -> Void) -> StateObservation {
        keyObservers.add(handler)
    }

    private func requireSlot(_ key: String) throws -> any StateSlot {
        guard let slot = slot(forKey: key) else { throw AppStateError.unknownKey(key) }
        return slot
    }
}
