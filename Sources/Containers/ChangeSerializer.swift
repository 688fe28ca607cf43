/// A lock an embedding runtime asks an ``AppContainer`` to take before its own locks on every change;
/// see ``AppContainer/changeSerializer``. It must be recursive: hooks run under it may call back.
public protocol ChangeSerializer: Sendable {
    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result
}
