#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only while holding its lock: `Synchronization.Mutex`'s shape
/// over a `pthread_mutex_t`.
///
/// Why not `Mutex` itself: on Linux it locks through raw `futex` calls, which ThreadSanitizer does not
/// see, so every access it protects is reported as a race and a real race drowns among them.
/// `pthread_mutex_lock` is intercepted, so `swift test --sanitize=thread` reports only real races. An
/// uncontended lock and unlock costs about as much as `Mutex`'s.
public final class Locked<Value>: @unchecked Sendable {
    // Both live out of line: the value is reached through a pointer, so an empty value (a lock that
    // guards only a section, `Locked(())`) never shares an address with the mutex, which
    // ThreadSanitizer would take for a race.
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock holding `value`.
    public init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with the value, holding the lock. `body` must not take this lock again.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }
}
