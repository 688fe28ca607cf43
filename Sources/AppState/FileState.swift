public import Foundation

extension Application {
    /// State kept as plain JSON in a file of its own, `<fileStateFolder>/<key>.json` — for values too
    /// large or too structured for preferences. Declared with ``Application/fileState(_:initial:)``.
    ///
    /// Every write reaches the disk before it returns, atomically (temporary file, fsync, rename): a
    /// reader sees the old file or the new one, and a crash leaves one of the two. The value is read once
    /// and kept until a container switch.
    public struct FileState<Value: Codable & Sendable>: StateHandle {
        @usableFromInline let slot: FileSlot<Value>

        /// The key the state was declared under.
        public var key: String { slot.key }
        /// Always ``StateKind/file``.
        public var kind: StateKind { .file }
        /// The value while there is no file (and after ``reset()``).
        public var initialValue: Value { slot.initialValue }
        /// The file holding the value.
        public var fileURL: URL { slot.fileURL }

        /// The current value; setting it saves the new value. Never throws: see ``StateHandle/value``
        /// for what a failure does.
        public var value: Value {
            get { slot.readOrFallBack() }
            nonmutating set { slot.writeOrKeep(newValue) }
        }

        /// The current value: the file's, or ``initialValue`` when there is none.
        ///
        /// - Throws: ``AppStateError/Code/decodingFailed`` when the file holds another
        ///   shape, ``AppStateError/Code/storage`` when it cannot be read.
        public func read() throws -> Value {
            try slot.read()
        }

        /// Writes `newValue` to the file.
        ///
        /// - Throws: ``AppStateError/Code/storage`` naming the failed step; the file keeps its
        ///   previous content.
        public func setValue(_ newValue: Value) throws {
            try slot.write(newValue)
        }

        /// Changes the value in one step: read, change, write, with no other write of this state between.
        ///
        /// `body` runs under the state's lock: it must not use the same state.
        @discardableResult
        public func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
            try slot.update(body)
        }

        /// Removes the file, so the state reads ``initialValue``.
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
