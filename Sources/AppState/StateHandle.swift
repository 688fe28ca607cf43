/// What every kind of declared state offers: reading, writing, updating in one step, resetting, and
/// observing changes. ``Application/State``, ``Application/StoredState``, ``Application/FileState`` and
/// ``Application/SecureState`` conform; slices (``slice(_:)``) are built on it.
///
/// Handles are cheap values: any number of them may refer to the same state.
public protocol StateHandle<Value>: Sendable {
    /// The type of the state's value.
    associatedtype Value: Sendable

    /// The key the state was declared under.
    var key: String { get }
    /// Where the state lives.
    var kind: StateKind { get }
    /// The value before any change (and after ``reset()``).
    var initialValue: Value { get }
    /// The current value.
    var value: Value { get throws }

    /// Replaces the value.
    func setValue(_ newValue: Value) throws

    /// Changes the value in one step: no other change through this application is interleaved.
    ///
    /// `body` runs under the state's lock: it must not use the same state.
    @discardableResult
    func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result

    /// Sets the value back to ``initialValue``, removing what was stored.
    func reset() throws

    /// Calls `handler` after each change, on the thread that made it, outside every lock. Keep the
    /// returned observation: cancelling or dropping it removes the observer.
    func observe(_ handler: @escaping @Sendable (StateChange<Value>) -> Void) -> StateObservation
}

extension StateHandle {
    /// The changes of this state as an asynchronous sequence, which ends when the consuming task is
    /// cancelled or the sequence is dropped.
    public func changes() -> AsyncStream<StateChange<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(of: StateChange<Value>.self)
        let observation = observe { change in continuation.yield(change) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// A view of one part of the value, read and written through `path`: `profile.slice(\.name)`.
    public func slice<Part: Sendable>(_ path: WritableKeyPath<Value, Part> & Sendable) -> StateSlice<Self, Part> {
        StateSlice(state: self, path: path)
    }
}
