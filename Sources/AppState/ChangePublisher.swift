public import Preferences

/// Delivers the changes of one piece of state: to its own observers with the new value, and to the
/// application's observers with the key alone.
///
/// Whether anyone listens is two atomic loads, inlined into the setter, so a change nobody observes
/// costs nothing more.
@usableFromInline
struct ChangePublisher<Value: Sendable>: Sendable {
    let key: String
    let kind: StateKind
    @usableFromInline let observers = ObserverList<StateChange<Value>>()
    @usableFromInline let applicationObservers: ObserverList<StateKeyChange>

    init(key: String, kind: StateKind, applicationObservers: ObserverList<StateKeyChange>) {
        self.key = key
        self.kind = kind
        self.applicationObservers = applicationObservers
    }

    /// True when someone listens, so callers can skip reading or decoding a value just to announce it.
    @inlinable var hasObservers: Bool { !observers.isEmpty || !applicationObservers.isEmpty }

    /// Announces `newValue`; call it outside every lock.
    @inlinable func publish(_ newValue: Value, reason: StateChangeReason) {
        if hasObservers { deliver(newValue, reason: reason) }
    }

    @usableFromInline func deliver(_ newValue: Value, reason: StateChangeReason) {
        if !observers.isEmpty {
            observers.notify(StateChange(key: key, newValue: newValue, reason: reason))
        }
        if !applicationObservers.isEmpty {
            applicationObservers.notify(StateKeyChange(key: key, kind: kind, reason: reason))
        }
    }
}
