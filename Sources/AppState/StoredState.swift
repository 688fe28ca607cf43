public import Preferences

extension Application {
    /// State kept in the container's preferences (`Library/Preferences/<appID>.plist`) under its key, in
    /// its property-list form. Declared with ``Application/storedState(_:initial:)``.
    ///
    /// Writes go to the preferences cache and reach the file on ``Application/flush()`` (which
    /// ``Application/prepareForSwitch()`` calls), or at once with a synchronous store.
    public struct StoredState<Value: Codable & Sendable>: StateHandle {
        @usableFromInline let slot: StoredSlot<Value>

        /// The key the state was declared under, which is also its key in the preferences.
        public var key: String { slot.key }
        /// Always ``StateKind/stored``.
        public var kind: StateKind { .stored }
        /// The value while nothing is stored (and after ``reset()``).
        public var initialValue: Value { slot.initialValue }
        /// The preferences store holding the value.
        package var store: PreferencesStore { slot.store }

        /// The current value: the stored one, or ``initialValue``; setting it stores the new value.
        /// Never throws: see ``StateHandle/value`` for what a failure does.
        @inlinable public var value: Value {
            get { slot.readOrFallBack() }
            nonmutating set { slot.writeOrKeep(newValue) }
        }

        /// The current value: the stored one, or ``initialValue``.
        ///
        /// - Throws: ``AppStateError/Code/storage`` when the preferences file is unreadable,
        ///   ``AppStateError/Code/decodingFailed`` when the stored value has another shape.
        @inlinable public func read() throws -> Value {
            try slot.read()
        }

        /// Stores `newValue`.
        ///
        /// - Throws: ``AppStateError/Code/encodingFailed`` when it has no property-list form.
        @inlinable public func setValue(_ newValue: Value) throws {
            try slot.write(newValue)
        }

        /// Changes the value in one step against every other writer of the preferences store.
        ///
        /// `body` runs under the store's lock: it must not use the store, nor any stored state.
        @discardableResult
        public func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
            try slot.update(body)
        }

        /// Removes the stored value, so the state reads ``initialValue``.
        public func reset() throws {
            try slot.reset()
        }

        /// Calls `handler` after each change of the key in the store — through this state or any other
        /// writer of the store — and after a reload that changed it. Keep the returned observation.
        public func observe(_ handler: @escaping @Sendable (StateChange<Value>) -> Void) -> StateObservation {
            slot.changes.observers.add(handler)
        }
    }
}
