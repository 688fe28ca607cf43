import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive `flock(2)` locks of a home, so that processes never change one home at once.
///
/// Two locks, always taken in this order when both are held:
/// - the **home lock** (`lock`), held by every changing operation of the engine for its whole length
///   (hooks, participants, moves);
/// - the **stores lock** (`stores.lock`), held briefly by every writer of a container's stores (a
///   preferences flush, a file-state write) and by the engine only while entries move and the active
///   container is recorded. A store writer never takes the home lock, so a switch waiting for its
///   participants to flush never waits for itself.
///
/// A lock dies with its process, so a crash never leaves a home locked. ``AppContainer/reset()`` removes
/// the lock files with the rest of the bookkeeping; a process that was waiting then holds a lock on a
/// removed file, notices that the path names another file (or none), and locks again.
enum HomeLock {
    /// Runs `body` holding the home's lock when no other process holds it now; returns `nil`, having
    /// run nothing, when one does.
    static func holdingIfFree<Result>(_ layout: HomeLayout, _ body: () throws -> Result) throws -> Result? {
        guard let descriptor = try acquire(layout.lock, layout: layout, waiting: false) else { return nil }
        defer { close(descriptor) }
        return try body()
    }

    /// Blocks until no other process holds the home's lock (taking it for a moment).
    static func waitUntilFree(_ layout: HomeLayout) throws {
        close(try acquire(layout.lock, layout: layout, waiting: true)!)
    }

    /// Runs `body` holding the home's stores lock (see the type's documentation).
    ///
    /// - Throws: ``ContainerError/reentrantOperation(_:)`` when this thread holds it already, which
    ///   would otherwise wait for itself forever.
    static func holdingStores<Result>(_ layout: HomeLayout, _ body: () throws -> Result) throws -> Result {
        let claim = try ReentrancyGuard.claim(home: layout.storesLock, operation: "write a container's stores")
        defer { ReentrancyGuard.release(claim) }
        let descriptor = try acquire(layout.storesLock, layout: layout, waiting: true)!
        defer { close(descriptor) }
        return try body()
    }

    /// Locks the file at `path` and returns the locked descriptor; blocks until then when `waiting`,
    /// otherwise returns `nil` at once when another process holds the lock.
    private static func acquire(_ path: String, layout: HomeLayout, waiting: Bool) throws -> Int32? {
        while true {
            try FileSystem.makePrivateDirectory(layout.bookkeeping)
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            if descriptor < 0 {
                // The folder may have just been removed by a reset in another process.
                if errno == ENOENT { continue }
                throw ContainerError.io(path: path, underlying: SystemCallError("open"))
            }
            while flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
                if errno == EINTR { continue }
                if errno == EWOULDBLOCK {
                    close(descriptor)
                    return nil
                }
                let failure = SystemCallError("flock")
                close(descriptor)
                throw ContainerError.io(path: path, underlying: failure)
            }
            var held = stat()
            var current = stat()
            if fstat(descriptor, &held) == 0, lstat(path, &current) == 0,
               held.st_dev == current.st_dev, held.st_ino == current.st_ino {
                return descriptor
            }
            close(descriptor) // the file was replaced or removed while we waited: lock the current one
        }
    }
}
