/// The storage of state that can fail to read or write (stored, file and secure state), with the
/// non-throwing access of ``StateHandle/value`` built on its throwing ``read()`` and ``write(_:)``.
@usableFromInline
protocol FallibleSlot<Value>: AnyObject, Sendable {
    associatedtype Value: Sendable

    var key: String { get }
    var kind: StateKind { get }
    var initialValue: Value { get }
    /// A change that could not be saved, served by non-throwing reads.
    var unsaved: UnsavedValue<Value> { get }
    /// Where failures of non-throwing access go.
    var failures: StateFailureReporter { get }
    /// Announces changes to the state's observers.
    var changes: ChangePublisher<Value> { get }

    func read() throws -> Value
    /// Saves `newValue`; on success forgets a kept unsaved value and the key's failure on record.
    func write(_ newValue: Value) throws
}

extension FallibleSlot {
    /// The value a non-throwing read answers: a change kept in memory, else the saved value, else — when
    /// it cannot be read — the initial value, with the failure reported.
    @inlinable
    func readOrFallBack() -> Value {
        if let kept = unsaved.value { return kept }
        do {
            return try read()
        } catch {
            return fellBack(reading: error)
        }
    }

    /// Saves `newValue` (which forgets a value kept before), or — when that fails — keeps it in memory for
    /// the reads that follow, tells the observers of the change and reports the failure.
    @inlinable
    func writeOrKeep(_ newValue: Value) {
        do {
            try write(newValue)
        } catch {
            keep(newValue, after: error)
        }
    }

    @usableFromInline
    func fellBack(reading error: any Error) -> Value {
        failures.report(StateFailure(key: key, kind: kind, operation: .read, error: Self.stateError(error, key: key)))
        return initialValue
    }

    @usableFromInline
    func keep(_ newValue: Value, after error: any Error) {
        unsaved.keep(newValue)
        failures.report(StateFailure(key: key, kind: kind, operation: .write, error: Self.stateError(error, key: key)))
        changes.publish(newValue, reason: .changed)
    }

    /// `error` as the ``AppStateError`` it is, or wrapped as an I/O failure of the state's key.
    static func stateError(_ error: any Error, key: String) -> AppStateError {
        if let stateError = error as? AppStateError { return stateError }
        return .io(path: key, operation: "access", reason: "\(error)")
    }
}
