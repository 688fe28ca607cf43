import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive `flock(2)` on a home's lock file, so that two processes never change one home at once.
///
/// The lock dies with its process, so a crashed switch never leaves a home locked. ``AppContainer/reset()``
/// removes the lock file with the rest of the bookkeeping; a process that was waiting then holds a lock
/// on a removed file, notices that the path names another file (or none), and locks again.
enum HomeLock {
    /// Runs `body` holding the home's lock, waiting for it as long as needed and creating the
    /// bookkeeping folder if needed.
    static func holding<Result>(_ layout: HomeLayout, _ body: () throws -> Result) throws -> Result {
        let descriptor = try acquire(layout)
        defer { close(descriptor) } // closing the last descriptor releases the flock
        return try body()
    }

    /// Blocks until this process holds the home's lock; returns the locked descriptor.
    private static func acquire(_ layout: HomeLayout) throws -> Int32 {
        while true {
            try FileSystem.makeDirectory(layout.bookkeeping, mode: 0o755)
            let descriptor = open(layout.lock, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            if descriptor < 0 {
                // The folder may have just been removed by a reset in another process.
                if errno == ENOENT { continue }
                throw ContainerError.io(path: layout.lock, underlying: SystemCallError("open"))
            }
            while flock(descriptor, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                let failure = SystemCallError("flock")
                close(descriptor)
                throw ContainerError.io(path: layout.lock, underlying: failure)
            }
            var held = stat()
            var current = stat()
            if fstat(descriptor, &held) == 0, lstat(layout.lock, &current) == 0,
               held.st_dev == current.st_dev, held.st_ino == current.st_ino {
                return descriptor
            }
            close(descriptor) // the file was replaced or removed while we waited: lock the current one
        }
    }
}
