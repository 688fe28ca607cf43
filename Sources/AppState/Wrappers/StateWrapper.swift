/// The property wrapper behind ``AppState``, ``StoredState``, ``FileState`` and ``SecureState``: the
/// whole value of a state declared in an extension of ``Application``, in the current application.
///
/// Reading and writing never throw (see ``StateHandle/value``); the projected value (`$username`) is
/// the state's handle, for its throwing forms, ``StateHandle/values`` and observers.
@propertyWrapper
public struct StateWrapper<Handle: StateHandle>: Sendable {
    @usableFromInline let state: ResolvedFromCurrent<Handle>

    /// Wraps the state that `keyPath` declares: `@AppState(\.username) var username`.
    public init(_ keyPath: KeyPath<Application, Handle> & Sendable) {
        state = ResolvedFromCurrent(use: "@\(Handle.self)(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The state's value; setting it saves the new value (or keeps it in memory when it cannot be saved).
    @inlinable public var wrappedValue: Handle.Value {
        get { state.withTarget { $0.value } }
        nonmutating set { state.withTarget { $0.value = newValue } }
    }

    /// The state's handle.
    public var projectedValue: Handle { state.target }
}

/// Memory state of the current application: `@AppState(\.username) var username`.
public typealias AppState<Value: Sendable> = StateWrapper<Application.State<Value>>
/// Stored state (the container's preferences) of the current application: `@StoredState(\.token) var token`.
public typealias StoredState<Value: Codable & Sendable> = StateWrapper<Application.StoredState<Value>>
/// File state of the current application: `@FileState(\.notes) var notes`.
public typealias FileState<Value: Codable & Sendable> = StateWrapper<Application.FileState<Value>>
/// Secure state of the current application: `@SecureState(\.userToken) var userToken: String?`.
public typealias SecureState<Value: Codable & Sendable> = StateWrapper<Application.SecureState<Value>>
