/// A lock an embedding runtime asks an ``AppContainer`` to take before its own locks on every change;
/// see ``AppContainer/changeSerializer``. It must be recursive: hooks run under it may call back.
package protocol ChangeSerializer: Sendable {
    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result

    /// Runs `wait` — a wait for another process's change of the home to end — without the lock, when the
    /// calling thread holds it (at whatever depth) and may let go of it; takes it back as deep as before.
    ///
    /// The other process may be asking this one to take part in its change, which runs hooks under this
    /// lock: a thread keeping the lock while it waits would keep that process waiting for its timeout.
    /// By default the lock is kept (`wait` runs as it is).
    ///
    /// - Throws: what `wait` throws, or the serializer's own error when the lock, taken back, no longer
    ///   allows the change (the runtime closed meanwhile, say).
    func lettingGo(while wait: () throws -> Void) throws

    /// Runs `body` holding the lock if the lock can be had within `seconds` (at once when it is 0);
    /// returns nil, having run nothing, when it cannot — its holder is busy (a long script, say).
    ///
    /// A process taking its part in another process's change waits only so long: that process holds
    /// the home's lock meanwhile and waits for it, so the part must be done while it still does, or
    /// not at all. By default the lock is simply taken.
    func withLock<Result>(waitingAtMost seconds: Double, _ body: () throws -> Result) rethrows -> Result?
}

extension ChangeSerializer {
    package func lettingGo(while wait: () throws -> Void) throws {
        try wait()
    }

    package func withLock<Result>(waitingAtMost seconds: Double, _ body: () throws -> Result) rethrows -> Result? {
        try withLock(body)
    }
}
