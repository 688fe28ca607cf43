public import Foundation

extension Application {
    /// State encrypted at rest: the value's JSON sealed with AES-GCM in a file of its own,
    /// `<secureStateFolder>/<key>.sealed` (mode 0600), under a key kept outside the containers (see
    /// ``SecureKeySource``). Declared with ``Application/secureState(_:initial:)`` or
    /// ``Application/secureState(_:)-method``.
    ///
    /// The file moves with its container; the key stays. Without the right key the value cannot be read:
    /// a wrong key or a damaged file fails with ``AppStateError/Code/decryptionFailed``, never with
    /// garbage. Writes are atomic like those of ``FileState``.
    public struct SecureState<Value: Codable & Sendable>: StateHandle {
        @usableFromInline let slot: FileSlot<Value>

        /// The key the state was declared under.
        public var key: String { slot.key }
        /// Always ``StateKind/secure``.
        public var kind: StateKind { .secure }
        /// The value while there is no file (and after ``reset()``).
        public var initialValue: Value { slot.initialValue }
        /// The file holding the sealed value.
        public var fileURL: URL { slot.fileURL }

        /// The current value; setting it saves the new value. Never throws: see ``StateHandle/value``
        /// for what a failure does.
        public var value: Value {
            get { slot.readOrFallBack() }
            nonmutating set { slot.writeOrKeep(newValue) }
        }

        /// The current value, decrypted, or ``initialValue`` when there is no file.
        ///
        /// - Throws: ``AppStateError/Code/decryptionFailed``, the key source's errors
        ///   (``AppStateError/Code/secureKeyMissing``, ``AppStateError/Code/keyFilePermissions``, ...).
        public func read() throws -> Value {
            try slot.read()
        }

        /// Encrypts and writes `newValue`.
        public func setValue(_ newValue: Value) throws {
            try slot.write(newValue)
        }

        /// Changes the value in one step.
        ///
        /// `body` runs under the state's lock: it must not use the same state.
        @discardableResult
        public func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
            try slot.update(body)
        }

        /// Removes the file, so the state reads ``initialValue``; needs no key.
        public func reset() throws {
            try slot.reset()
        }

        /// Calls `handler` after each change, and after a container switch when the new container's file
        /// differs. Keep the returned observation.
        public func observe(_ handler: @escaping @Sendable (StateChange<Value>) -> Void) -> StateObservation {
            slot.changes.observers.add(handler)
        }
    }
}
