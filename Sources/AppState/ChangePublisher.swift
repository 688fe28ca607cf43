import Preferences

/// Delivers the changes of one piece of state: to its own observers with the new value, and to the
/// application's observers with the key alone.
struct ChangePublisher<Value: Sendable>: Sendable {
    let key: String
    let kind: StateKind
    let observers = ObserverList<StateChange<Value>>()
    let applicationObservers: ObserverList<StateKeyChange>

    /// True when someone listens, so callers can skip reading or decoding a value just to announce it.
    var hasObservers: Bool { !observers.isEmpty || !applicationObservers.isEmpty }

    /// Announces `newValue`; call it outside every lock.
    func publish(_ newValue: Value, reason: StateChangeReason) {
        if !observers.isEmpty {
            observers.notify(StateChange(key: key, newValue: newValue, reason: reason))
        }
        if !applicationObservers.isEmpty {
            applicationObservers.notify(StateKeyChange(key: key, kind: kind, reason: reason))
        }
    }
}
