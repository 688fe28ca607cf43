
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Refuses a changing operation on a home from a thread that is already inside one on that home — a
/// will-change hook calling `activate`, say — which would otherwise wait for its own lock forever.
enum ReentrancyGuard {
    struct Claim: Hashable, Sendable {
        let home: String
        let thread: UInt
    }

    private static let claims = Locked<Set<Claim>>([])
    /// Homes whose finished switch the thread is announcing (did-change delegates, hooks, observers).
    private static let announcing = Locked<Set<Claim>>([])

    /// Runs `body` marked as announcing a finished switch of `home` on this thread.
    static func announcing(home: String, _ body: () -> Void) {
        let claim = Claim(home: home, thread: currentThread())
        let fresh = announcing.withLock { $0.insert(claim).inserted }
        defer { if fresh { _ = announcing.withLock { $0.remove(claim) } } }
        body()
    }

    /// Whether this thread is announcing a finished switch of `home`: a switch started now would start
    /// inside a did-change hook.
    static func isAnnouncing(home: String) -> Bool {
        let claim = Claim(home: home, thread: currentThread())
        return announcing.withLock { $0.contains(claim) }
    }

    /// Records that the current thread changes `home`.
    ///
    /// - Throws: ``ContainerError/Code/reentrantOperation`` if it already does.
    static func claim(home: String, operation: String) throws -> Claim {
        let claim = Claim(home: home, thread: currentThread())
        let fresh = claims.withLock { $0.insert(claim).inserted }
        guard fresh else { throw ContainerError.reentrantOperation(operation) }
        return claim
    }

    static func release(_ claim: Claim) {
        _ = claims.withLock { $0.remove(claim) }
    }

    private static func currentThread() -> UInt {
        #if canImport(Darwin)
        return UInt(bitPattern: pthread_self())
        #else
        return UInt(pthread_self())
        #endif
    }
}
