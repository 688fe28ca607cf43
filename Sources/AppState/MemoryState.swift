extension Application {
    /// State kept in memory: fast, never fails, gone when the process ends. Declared with
    /// ``Application/state(_:initial:)``.
    ///
    /// On a container switch it takes the value it had when that container was last active, or its
    /// initial value (see ``Application/containerDidSwitch(to:)``).
    public struct State<Value: Sendable>: StateHandle {
        @usableFromInline let slot: MemorySlot<Value>

        /// The key the state was declared under.
        public var key: String { slot.key }
        /// Always ``StateKind/memory``.
        public var kind: StateKind { .memory }
        /// The value before any change (and after ``reset()``).
        public var initialValue: Value { slot.initialValue }

        /// The current value; setting it notifies observers.
        @inlinable public var value: Value {
            get { slot.value }
            nonmutating set { slot.set(newValue) }
        }

        /// The current value; memory state cannot fail to be read.
        @inlinable public func read() -> Value {
            slot.value
        }

        /// Replaces the value.
        @inlinable public func setValue(_ newValue: Value) {
            slot.set(newValue)
        }

        /// Changes the value in one step: `counter.update { $0 += 1 }` never loses a concurrent increment.
        ///
        /// `body` runs under the state's lock: it must not use the same state.
        @discardableResult
        public func update<Result, Failure: Error>(
            _ body: (inout Value) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try slot.update(body)
        }

        /// Sets the value back to ``initialValue``.
        public func reset() {
            slot.reset()
        }

        /// Calls `handler` after each change. Keep the returned observation: cancelling or dropping it
        /// removes the observer.
        public func observe(_ handler: @escaping @Sendable (StateChange<Value>) -> Void) -> StateObservation {
            slot.changes.observers.add(handler)
        }
    }
}
