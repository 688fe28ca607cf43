import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `flock(2)` locks of a home, so that processes never change one home at once.
///
/// Two locks, always taken in this order when both are held:
/// - the **home lock** (`lock`), held by every changing operation of the engine for its whole length
///   (hooks, participants, moves);
/// - the **stores lock** (`stores.lock`), held briefly by every writer of a container's stores (a
///   preferences flush, a file-state write) and by the engine only while entries move and the active
///   container is recorded. A store writer never takes the home lock, so a switch waiting for its
///   participants to flush never waits for itself.
///
/// A process that cannot write the home (a read-only file system, no write permission) reads it under a
/// shared lock instead, where it can open the lock file (``holdingShared(_:_:)``).
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
    /// - Throws: ``ContainerError/Code/reentrantOperation`` when this thread holds it already, which
    ///   would otherwise wait for itself forever.
    static func holdingStores<Result>(_ layout: HomeLayout, _ body: () throws -> Result) throws -> Result {
        let claim = try ReentrancyGuard.claim(home: layout.storesLock, operation: "write a container's stores")
        defer { ReentrancyGuard.release(claim) }
        let descriptor = try acquire(layout.storesLock, layout: layout, waiting: true)!
        defer { close(descriptor) }
        return try body()
    }

    /// Why this process cannot change the home, as the `access(2)` failure saying so (`EROFS`, `EACCES`),
    /// or nil when it can: the lock file — or, before there is one, the bookkeeping folder or the home
    /// itself — is on a read-only file system or not writable by this user. Such a home can still be
    /// read (``holdingShared(_:_:)``); a change of it fails when it first writes, naming the file.
    static func writeRefusal(_ layout: HomeLayout) -> SystemCallError? {
        let existing: (String) -> Bool = { access($0, F_OK) == 0 }
        let target = [layout.lock, layout.bookkeeping].first(where: existing) ?? layout.home
        if access(target, W_OK) == 0 { return nil }
        let failure = SystemCallError("access")
        return [EROFS, EACCES, EPERM].contains(failure.code) ? failure : nil
    }

    /// Runs `body` holding a shared lock on the lock file at `path` (``HomeLayout/lock`` or
    /// ``HomeLayout/storesLock``), for a read of a home this process cannot write (``writeRefusal(_:)``).
    ///
    /// `flock(2)` works on a descriptor opened for reading only, so the lock file is opened `O_RDONLY`
    /// and never created. A shared lock waits for a process changing the home (it holds the lock
    /// exclusively) and keeps the next one waiting until `body` returns, so the read never sees a
    /// change half done. When the lock file cannot be opened at all — there is none yet, or this user may
    /// not read it — `body` runs without a lock: on a read-only file system nobody can change the home,
    /// and on another user's home a change by its owner may then be seen half done, as reads of
    /// ``AppContainer/containers`` may on any home.
    static func holdingShared<Result>(_ path: String, _ body: () throws -> Result) throws -> Result {
        while true {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                guard errno == ENOENT || errno == EACCES else {
                    throw ContainerError.io(path: path, underlying: SystemCallError("open"))
                }
                return try body()
            }
            defer { close(descriptor) }
            if try lock(descriptor, path: path, operation: LOCK_SH) == .held { return try body() }
        }
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
            let outcome: LockOutcome
            do {
                outcome = try lock(descriptor, path: path, operation: waiting ? LOCK_EX : LOCK_EX | LOCK_NB)
            } catch {
                close(descriptor)
                throw error
            }
            switch outcome {
            case .held: return descriptor
            case .busy: close(descriptor); return nil
            case .replaced: close(descriptor) // lock the current file
            }
        }
    }

    private enum LockOutcome {
        /// The lock is held on the file the path names now.
        case held
        /// Another process holds it (a non-blocking request).
        case busy
        /// The file was replaced or removed while waiting: lock the current one.
        case replaced
    }

    /// Takes the `flock(2)` `operation` on `descriptor`, opened on `path`.
    private static func lock(_ descriptor: Int32, path: String, operation: Int32) throws -> LockOutcome {
        while flock(descriptor, operation) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return .busy }
            throw ContainerError.io(path: path, underlying: SystemCallError("flock"))
        }
        var held = stat()
        var current = stat()
        if fstat(descriptor, &held) == 0, lstat(path, &current) == 0,
           held.st_dev == current.st_dev, held.st_ino == current.st_ino {
            return .held
        }
        return .replaced
    }
}
