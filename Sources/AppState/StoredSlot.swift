import Preferences
import Synchronization

/// The storage of stored state: one key of the container's ``PreferencesStore``.
///
/// The store is the only source of truth. The last decoded value is kept together with the property-list
/// value it came from, and reused only while the store still holds that same value, so no invalidation is
/// needed when the store changes under us (a reload after a switch, a write by another part of the app).
final class StoredSlot<Value: Codable & Sendable>: StateSlot {
    private struct Decoded {
        let stored: PreferenceValue
        let value: Value
    }

    let key: String
    let initialValue: Value
    let store: PreferencesStore
    let changes: ChangePublisher<Value>
    private let lastDecoded = Mutex<Decoded?>(nil)
    private let storeObservation = Mutex<PreferencesObservation?>(nil)

    init(key: String, initialValue: Value, store: PreferencesStore, applicationObservers: ObserverList<StateKeyChange>) {
        self.key = key
        self.initialValue = initialValue
        self.store = store
        self.changes = ChangePublisher(key: key, kind: .stored, applicationObservers: applicationObservers)
        // Every write to this key, by us or anyone else, and every reload reaches observers through the store.
        let observation = store.observe(key: key) { [weak self] change in
            self?.storeDidChange(change)
        }
        storeObservation.withLock { $0 = observation }
    }

    var kind: StateKind { .stored }
    var valueTypeName: String { String(reflecting: Value.self) }

    func read() throws -> Value {
        let stored = try storage { try store.value(forKey: key) }
        guard let stored else { return initialValue }
        return try decode(stored)
    }

    func write(_ newValue: Value) throws {
        let encoded = try encode(newValue)
        try storage { try store.set(encoded, forKey: key) }
    }

    func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
        var result: Result?
        // The store's lock makes read-modify-write one step against every other writer of the store.
        try storage {
            try store.update { values in
                var value = try values[key].map(decode) ?? initialValue
                result = try body(&value)
                values[key] = try encode(value)
            }
        }
        return result!
    }

    func reset() throws {
        try storage { try store.removeValue(forKey: key) }
    }

    func readAny() throws -> any Sendable { try read() }

    func writeAny(_ value: any Sendable) throws {
        guard let typed = value as? Value else { throw typeMismatch(value) }
        try write(typed)
    }

    func containerDidSwitch() {
        lastDecoded.withLock { $0 = nil }
    }

    private func storeDidChange(_ change: PreferenceChange) {
        guard changes.hasObservers else { return }
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
        if let last = lastDecoded.withLock({ $0 }), last.stored == stored { return last.value }
        let value: Value
        do {
            value = try stored.decode(Value.self)
        } catch {
            throw AppStateError.decodingFailed(key: key, path: store.fileURL.path, reason: "\(error)")
        }
        lastDecoded.withLock { $0 = Decoded(stored: stored, value: value) }
        return value
    }

    private func encode(_ value: Value) throws -> PreferenceValue {
        do {
            return try PreferenceValue(encoding: value)
        } catch {
            throw AppStateError.encodingFailed(key: key, reason: "\(error)")
        }
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
