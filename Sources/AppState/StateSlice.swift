/// One part of a piece of state, read and written through a key path: a user's name within the user,
/// a flag within a settings structure, an entry of a dictionary (`slice(\.["key"])`).
///
/// Writing a slice updates the whole value in one step, so concurrent writes to different slices of
/// the same state never lose each other's changes.
public struct StateSlice<Handle: StateHandle, Part: Sendable>: Sendable {
    /// The state sliced.
    public let state: Handle
    /// The path from the state's value to the part.
    public let path: WritableKeyPath<Handle.Value, Part> & Sendable

    /// Creates a slice of `state` at `path`; ``StateHandle/slice(_:)`` is the usual way.
    package init(state: Handle, path: WritableKeyPath<Handle.Value, Part> & Sendable) {
        self.state = state
        self.path = path
    }

    /// The part's current value, read and written without `try` as ``StateHandle/value`` is; setting it
    /// changes the part within the whole value in one step.
    public var value: Part {
        get { state.value[keyPath: path] }
        nonmutating set { state.setPart(path, to: newValue) }
    }

    /// The part's current value, or the error that kept the state from being read.
    public func read() throws -> Part {
        try state.read()[keyPath: path]
    }

    /// Replaces the part, keeping the rest of the value.
    public func setValue(_ newValue: Part) throws {
        let path = self.path
        try state.update { $0[keyPath: path] = newValue }
    }

    /// Changes the part in one step.
    @discardableResult
    public func update<Result>(_ body: (inout Part) throws -> Result) throws -> Result {
        let path = self.path
        return try state.update { try body(&$0[keyPath: path]) }
    }

    /// Calls `handler` with the part after each change of the state.
    public func observe(_ handler: @escaping @Sendable (StateChange<Part>) -> Void) -> StateObservation {
        let path = self.path
        return state.observe { change in
            handler(StateChange(key: change.key, newValue: change.newValue[keyPath: path], reason: change.reason))
        }
    }
}
