extension AppContainer {
    /// The switches of the active container, each after it is complete (when the did-change hooks
    /// run), as an asynchronous sequence — the Swift-concurrency form of ``addDidChangeHook(_:)``. It
    /// ends when the consuming task is cancelled or the sequence is dropped.
    public var switches: AsyncStream<ContainerSwitch> {
        let (stream, continuation) = AsyncStream.makeStream(of: ContainerSwitch.self)
        let token = addDidChangeHook { to, from in continuation.yield(ContainerSwitch(to: to, from: from)) }
        continuation.onTermination = { [weak self] _ in self?.removeHook(token) }
        return stream
    }
}
