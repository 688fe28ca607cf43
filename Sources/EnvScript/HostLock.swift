import Containers
import Foundation

/// Serialises every use of a host's Lua state.
///
/// Lua is single-threaded, while the engines call providers, decryptors and hooks from whatever thread
/// uses them. The lock is recursive because Lua calls Swift, which may call Lua again on the same thread.
public final class HostLock: ChangeSerializer, @unchecked Sendable {
    private let lock = NSRecursiveLock()

    /// Creates an unlocked lock.
    public init() {}

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
