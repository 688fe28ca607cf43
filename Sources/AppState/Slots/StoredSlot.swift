import Preferences
public import Locking

/// The storage of stored state: one key of the container's ``PreferencesStore``.
///
/// The store is the only source of truth. The last value read is kept with the store's
/// ``PreferencesStore/generation`` at the time, so a read while the store is unchanged costs one
/// atomic load and one lock, and needs no invalidation. After a change of the store the value is read
/// again, and decoded again only when the stored form of this key differs. The read of a kept value is
/// inlinable, so a handle's caller runs it specialised for its value type.
@usableFromInline
final class StoredSlot<Value: Codable & Sendable>: StateSlot, FallibleSlot {
    /// The value last read, with the stored form it came from and the store's generation then.
    @usableFromInline
    struct Kept: Sendable {
        @usableFromInline let generation: UInt64
        let stored: PreferenceValue?
        @usableFromInline let value: Value
    }

    @usableFromInline let key: String
    /// The key held in the store, so a write reaches its observers without a look-up.
    let storeKey: PreferencesStore.Key
    @usableFromInline let initialValue: Value
    let store: PreferencesStore
    @usableFromInline let changes: ChangePublisher<Value>
    @usableFromInline let unsaved = UnsavedValue<Value>()
    @usableFromInline let failures: StateFailureReporter
    let codec = PreferenceCodec<Value>()
    @usableFromInline let kept = Locked<Kept?>(nil)
    private let storeObservation = Locked<PreferencesObservation?>(nil)

    init(
        key: String, initialValue: Value, store: PreferencesStore, applicationObservers: ObserverList<StateKeyChange>,
        failures: StateFailureReporter
    ) {
        self.failures = failures
        self.key = key
        self.initialValue = initialValue
        self.store = store
        self.storeKey = store.key(key)
        self.changes = ChangePublisher(key: key, kind: .stored, applicationObservers: applicationObservers)
        // Every write to this key, by us or anyone else, and every reload reaches observers through the store.
        // Whether anyone listens is checked on the lists themselves, before anything generic runs, so a
        // change nobody observes costs two atomic loads.
        let observers = changes.observers, applicationObservers = changes.applicationObservers
        let unsaved = unsaved
        let observation = store.observe(storeKey) { [weak self] change in
            // Another writer's value (or a reload) replaces a change kept in memory.
            unsaved.forget()
            guard !observers.isEmpty || !applicationObservers.isEmpty else { return }
            self?.storeDidChange(change)
        }
        storeObservation.withLock { $0 = observation }
    }

    @usableFromInline var kind: StateKind { .stored }
    var valueType: any Sendable.Type { Value.self }

    /// The store's generation now: one atomic load, behind a call since the store is not part of the API.
    @usableFromInline
    var storeGeneration: UInt64 { store.generation }

    @inlinable
    func read() throws -> Value {
        let generation = storeGeneration
        let current = kept.withLock { kept -> Value? in
            guard let kept, kept.generation == generation else { return nil }
            return kept.value
        }
        if let current { return current }
        return try readFromStore()
    }

    @usableFromInline
    func write(_ newValue: Value) throws {
        let encoded: PreferenceValue
        do {
            encoded = try codec.encode(newValue)
        } catch {
            throw encodingFailed(error)
        }
        do {
            try store.set(encoded, for: storeKey)
        } catch let error as PreferencesError {
            throw AppStateError.storage(key: key, error)
        }
        unsaved.forget()
        failures.clear(key: key)
    }

    func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
        var result: Result?
        // The store's lock makes read-modify-write one step against every other writer of the store.
        try storage {
            try store.update { values in
                // A change kept in memory (a write that could not be saved) is what the reads see: start there.
                var value = try unsaved.value ?? values[key].map(decode) ?? initialValue
                result = try body(&value)
                values[key] = try encode(value)
            }
        }
        unsaved.forget()
        failures.clear(key: key)
        return result!
    }

    func reset() throws {
        try storage { try store.removeValue(forKey: key) }
        failures.clear(key: key)
        // Readers saw the kept value: they hear that it went, whether or not the store changed.
        if unsaved.forget() { changes.publish(initialValue, reason: .changed) }
    }

    func readAny() throws -> any Sendable { try unsaved.value ?? read() }

    func writeAny(_ value: any Sendable) throws {
        guard let typed = value as? Value else { throw typeMismatch(value) }
        try write(typed)
    }

    func containerDidSwitch() {
        kept.withLock { $0 = nil }
        // Readers saw the kept value: they hear the new container's, whether or not the store's differs.
        if unsaved.forget(), changes.hasObservers, let value = try? read() {
            changes.publish(value, reason: .reloaded)
        }
    }

    /// Reads the value from the store, decoding it only when its stored form changed, and keeps it.
    @usableFromInline
    func readFromStore() throws -> Value {
        let (stored, generation) = try storage { try store.valueAndGeneration(forKey: key) }
        let previous = kept.withLock { $0 }
        let value: Value
        if let previous, previous.stored == stored {
            value = previous.value
        } else {
            value = try stored.map(decode) ?? initialValue
        }
        kept.withLock { kept in
            // A slower reader of an older generation does not replace a newer one.
            if kept == nil || kept!.generation <= generation {
                kept = Kept(generation: generation, stored: stored, value: value)
            }
        }
        failures.clear(key: key)
        return value
    }

    private func storeDidChange(_ change: PreferenceChange) {
        let reason: StateChangeReason = change.reason == .reload ? .reloaded : .changed
        guard let stored = change.newValue else {
            changes.publish(initialValue, reason: reason)
            return
        }
        // A value that does not decode is not announced: reading it throws the decoding error instead.
        guard let value = try? decode(stored) else { return }
        changes.publish(value, reason: reason)
    }

    private func decode(_ stored: PreferenceValue) throws -> Value {
        do {
            return try codec.decode(stored)
        } catch {
            throw AppStateError.decodingFailed(key: key, path: store.fileURL.path, reason: "\(error)")
        }
    }

    private func encode(_ value: Value) throws -> PreferenceValue {
        do {
            return try codec.encode(value)
        } catch {
            throw encodingFailed(error)
        }
    }

    @usableFromInline
    func encodingFailed(_ error: any Error) -> AppStateError {
        .encodingFailed(key: key, reason: "\(error)")
    }

    /// Runs a store operation, naming this state in the store's errors.
    private func storage<T>(_ operation: () throws -> T) throws -> T {
        do {
            return try operation()
        } catch let error as PreferencesError {
            throw AppStateError.storage(key: key, error)
        }
    }
}
