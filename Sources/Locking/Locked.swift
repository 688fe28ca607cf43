#if ENVSCRIPT_PTHREAD_LOCKS
#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif
#else
public import Synchronization
#endif

/// A value that threads share, reached only while holding its lock: `Synchronization.Mutex`'s shape
/// in a class, so it can be shared by reference and stored anywhere.
///
/// Two builds of the same lock:
/// - normally it is a `Mutex`, whose uncontended lock and unlock are inlined atomic operations;
/// - built with `-DENVSCRIPT_PTHREAD_LOCKS` (as `scripts/test-threads` builds for ThreadSanitizer) it
///   is a `pthread_mutex_t`. On Linux `Mutex` locks through raw `futex` calls that ThreadSanitizer does
///   not see, so every access it protects would be reported as a race and a real race would drown
///   among them; `pthread_mutex_lock` is intercepted, so the sanitizer reports only real races.
///
/// Both give the same guarantees: mutual exclusion, and every change made under the lock visible to
/// the next holder.
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
#if ENVSCRIPT_PTHREAD_LOCKS
    // Both live out of line: the value is reached through a pointer, so an empty value (a lock that
    // guards only a section, `Locked(())`) never shares an address with the mutex, which
    // ThreadSanitizer would take for a race.
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock holding `value`.
    package init(_ value: Value) {
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
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }
#else
    // The mutex guards a value of its own kept out of line: `Mutex.withLock` asks for a `sending`
    // result, which a lock shared by reference cannot promise for every caller's closure.
    @usableFromInline let mutex = Mutex<Void>(())
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    /// A lock holding `value`.
    package init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with the value, holding the lock. `body` must not take this lock again.
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        mutex._unsafeLock()
        defer { mutex._unsafeUnlock() }
        return try body(&storage.pointee)
    }
#endif
}
