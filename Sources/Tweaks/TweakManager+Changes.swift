extension TweakManager {
    /// Every change of the flags as an asynchronous sequence — the Swift-concurrency form of
    /// ``observe(_:)``: an override set or deleted, a provider that reloaded or fetched, a container
    /// switch that brought other overrides. It ends when the consuming task is cancelled or the sequence
    /// is dropped.
    ///
    /// The sequence sees the changes made from the moment it is asked for: ask for it before starting the
    /// task that consumes it (`let changes = tweaks.changes; Task { for await change in changes { … } }`),
    /// or the changes made before that task first runs are missed.
    public var changes: AsyncStream<TweakChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: TweakChange.self)
        let observation = observe { change in continuation.yield(change) }
        continuation.onTermination = { _ in observation.remove() }
        return stream
    }
}
