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
    /// The current value, read and written without `try`, as AppState's are.
    ///
    /// When the value cannot be read (a file that cannot be opened, a secure key missing) the initial
    /// value stands in; when a new value cannot be saved it is kept in memory and read back until a
    /// save succeeds, the state is reset or the container switches. Either way the failure is logged
    /// and reported to the application's failure observers (``Application/observeFailures(_:)``).
    /// Use ``read()`` and ``setValue(_:)`` to get the error instead.
    var value: Value { get nonmutating set }

    /// The current value, or the error that kept it from being read.
    func read() throws -> Value

    /// Replaces the value, or throws the error that kept it from being saved (and changes nothing).
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

    /// The values this state takes from now on, each one as it is set — by this process or, for stored,
    /// file and secure state, read anew after another process wrote it or after a container switch (the
    /// current value is not among them: read ``value`` for it). Observing starts when this property is
    /// read, not when the sequence is first iterated. The sequence ends when the consuming task is
    /// cancelled or the sequence is dropped.
    public var values: AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let observation = observe { change in continuation.yield(change.newValue) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// A view of one part of the value, read and written through `path`: `profile.slice(\.name)`.
    public func slice<Part: Sendable>(_ path: WritableKeyPath<Value, Part> & Sendable) -> StateSlice<Self, Part> {
        StateSlice(state: self, path: path)
    }
}
