import Preferences
public import Locking

/// The storage of memory state: a value under a lock, and whether it differs from the initial value
/// by having been set (so a switch knows what to keep).
@usableFromInline
final class MemorySlot<Value: Sendable>: MemoryStateSlot {
    @usableFromInline
    struct Storage {
        @usableFromInline var value: Value
        @usableFromInline var isSet: Bool

        @inlinable init(value: Value, isSet: Bool = false) {
            self.value = value
            self.isSet = isSet
        }
    }

    let key: String
    let initialValue: Value
    @usableFromInline let changes: ChangePublisher<Value>
    @usableFromInline let storage: Locked<Storage>

    init(key: String, initialValue: Value, applicationObservers: ObserverList<StateKeyChange>) {
        self.key = key
        self.initialValue = initialValue
        self.changes = ChangePublisher(key: key, kind: .memory, applicationObservers: applicationObservers)
        self.storage = Locked(Storage(value: initialValue))
    }

    var kind: StateKind { .memory }
    var valueType: any Sendable.Type { Value.self }

    @inlinable var value: Value { storage.withLock { $0.value } }

    @inlinable func set(_ newValue: Value) {
        storage.withLock { $0 = Storage(value: newValue, isSet: true) }
        changes.publish(newValue, reason: .changed)
    }

    /// Changes the value in one step; when `body` throws, the value is left as it was.
    func update<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        let (result, newValue) = try storage.withLock { (storage: inout Storage) throws(Failure) -> (Result, Value) in
            var value = storage.value
            let result = try body(&value)
            storage = Storage(value: value, isSet: true)
            return (result, value)
        }
        changes.publish(newValue, reason: .changed)
        return result
    }

    func reset() {
        storage.withLock { $0 = Storage(value: initialValue) }
        changes.publish(initialValue, reason: .changed)
    }

    func readAny() -> any Sendable { value }

    func writeAny(_ value: any Sendable) throws {
        guard let typed = value as? Value else { throw typeMismatch(value) }
        set(typed)
    }

    func containerDidSwitch() {}

    func valueToKeep() -> (any Sendable)? {
        storage.withLock { $0.isSet ? $0.value : nil }
    }

    func restore(_ kept: (any Sendable)?) {
        let restored = kept as? Value
        let wasSet = storage.withLock { storage in
            defer { storage = Storage(value: restored ?? initialValue, isSet: restored != nil) }
            return storage.isSet
        }
        // An untouched value that stays untouched did not change; anything else may have.
        if wasSet || restored != nil {
            changes.publish(restored ?? initialValue, reason: .reloaded)
        }
    }
}
