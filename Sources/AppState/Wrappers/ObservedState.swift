import Locking
public import Observation

/// A state for the Observation framework: an `@Observable` model (or a view) that reads ``value`` is
/// told when the state changes — set through any handle, wrapper or script, read anew from another
/// process's write, or brought by a container switch.
///
/// ```swift
/// @Observable final class ProfileModel {
///     let username = ObservedState(Application.state(\.username))
/// }
/// withObservationTracking { print(model.username.value) } onChange: { redraw() }
/// ```
///
/// Property wrappers and the `@Observable` macro do not combine, so a model holds this object instead
/// of a wrapper. It keeps the last value it heard of, so reading it costs one lock; writing goes to
/// the state. Works on Linux as on Apple platforms.
public final class ObservedState<Handle: StateHandle>: Observable, @unchecked Sendable {
    // @unchecked: the value lives under a lock, the registrar is thread-safe and the rest is immutable.
    /// The state observed.
    public let state: Handle
    private let registrar = ObservationRegistrar()
    private let latest: Locked<Handle.Value>
    private let observation = Locked<StateObservation?>(nil)

    /// Observes `state` from now on, for as long as this object lives.
    public init(_ state: Handle) {
        self.state = state
        latest = Locked(state.value)
        let observation = state.observe { [weak self] _ in self?.stateChanged() }
        self.observation.withLock { $0 = observation }
        // A change between the first read and the observer's start is not missed.
        let current = state.value
        latest.withLock { $0 = current }
    }

    deinit {
        observation.withLock { $0?.cancel() }
    }

    /// The state's value, as last heard of; reading it inside `withObservationTracking` (or a SwiftUI
    /// view's body) registers the interest. Setting it sets the state (see ``StateHandle/value``).
    public var value: Handle.Value {
        get {
            registrar.access(self, keyPath: \.value)
            return latest.withLock { $0 }
        }
        set {
            state.value = newValue
        }
    }

    /// Takes the state's value now rather than the change's: observers of concurrent changes may be
    /// called in another order than the changes were made, and the last to run must leave the last value.
    private func stateChanged() {
        let current = state.value
        registrar.withMutation(of: self, keyPath: \.value) {
            latest.withLock { $0 = current }
        }
    }
}
