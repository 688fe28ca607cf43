/// The host as the control API's handlers hold it: a weak reference that may cross into `@Sendable`
/// closures, and the one way handlers reach the host — under its lock, on ``BlockingWork``'s queue.
///
/// A host is not `Sendable`: its Lua state may be used by one thread at a time. Sharing the
/// reference is still sound because nothing here touches the host except inside ``run(_:)``, which
/// holds the host's lock (``ControlledHost/withLockWhileOpen(_:)``) — the lock that serialises every use of the Lua state — for the whole
/// of `body`; the engines the host exposes (containers, tweaks, application) are thread-safe on their
/// own. Taking the host lock first also keeps the process's lock order (host lock, then the container
/// engine's gate, then the home's file lock) when a request switches containers and Lua hooks run.
///
/// The reference is weak so that a host which owns its control server (and through it these routes)
/// can still be released; once it is gone, or closed, requests fail with a clear error. It may also be
/// given later (``HostReference``): a host's own control routes are made while the host opens, before
/// there is a host to hold, and fail as for a closed host until then.
struct ControlHost: Sendable {
    private let reference: HostReference
    /// The group the event streams of these routes join, beside their host.
    let eventStreams: EventStreamGroup?

    init(_ host: any ControlledHost, eventStreams: EventStreamGroup? = nil) {
        self.init(HostReference(host), eventStreams: eventStreams)
    }

    init(_ reference: HostReference, eventStreams: EventStreamGroup? = nil) {
        self.reference = reference
        self.eventStreams = eventStreams
    }

    private var host: (any ControlledHost)? { reference.host }

    /// Runs `body` with the host, holding its lock, on the blocking queue.
    ///
    /// - Throws: ``ControlError/hostClosed`` when the host was released or is closing, and whatever
    ///   `body` throws.
    func run<T: Sendable>(_ body: @escaping @Sendable (any ControlledHost) throws -> T) async throws -> T {
        try await BlockingWork.run {
            guard let host = self.host, let result = try host.withLockWhileOpen({ try body(host) }) else {
                throw ControlError.hostClosed
            }
            return result
        }
    }

    /// Returns once no other thread waits for the host's lock, or after 50 ms: work done in turns under
    /// the lock gives every other request its turn between two of its own.
    func letWaitersThrough() async {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(50)
        while let host, host.hasLockWaiters, clock.now < deadline {
            try? await Task.sleep(for: .microseconds(200))
        }
    }

    /// Runs `body` with the host on the blocking queue *without* its lock, for an operation that takes the
    /// host's locks itself, in its own order (a reload of the start-up scripts).
    ///
    /// - Throws: ``ControlError/hostClosed`` when the host was released or is closing, and whatever
    ///   `body` throws.
    func runWithoutLock<T: Sendable>(_ body: @escaping @Sendable (any ControlledHost) throws -> T) async throws -> T {
        try await BlockingWork.run { try withHostTakingPart(body) }
    }

    /// Runs `body` with the host on the blocking queue *without* its lock — only for taking part in
    /// another process's change of the home. That process holds the home's lock meanwhile; should a
    /// thread of this host hold the host lock while waiting for the home's lock, taking the host lock
    /// here would keep the asker waiting until its timeout even when no Lua hook needs the lock. The
    /// hooks that call into Lua take the host lock themselves.
    func runTakingPart<T: Sendable>(_ body: @escaping @Sendable (any ControlledHost) throws -> T) async throws -> T {
        try await runWithoutLock(body)
    }

    /// ``runTakingPart(_:)`` on the calling thread, for work already on the blocking queue.
    func withHostTakingPart<T>(_ body: (any ControlledHost) throws -> T) throws -> T {
        guard let host = self.host, !host.isClosing else { throw ControlError.hostClosed }
        return try body(host)
    }

    /// Throws unless the host is still there; never blocks, so it may run on any thread.
    func checkAvailable() throws {
        if !isAlive { throw ControlError.hostClosed }
    }

    /// Whether the host has not been released yet; never blocks, so it may run on any thread.
    var isAlive: Bool { host != nil }
}
