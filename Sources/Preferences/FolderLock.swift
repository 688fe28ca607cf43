import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock(2)` on a folder, released when `body` returns (or the process dies).
enum FolderLock {
    static func holding<Result>(_ folder: URL, _ body: () throws -> Result) throws -> Result {
        let path = folder.path
        do {
            try PrivateFolders.make(path)
        } catch {
            throw PreferencesError.writeFailed(path: path, step: "create folder '\(error.path)'", reason: error.reason)
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PreferencesError.writeFailed(path: path, step: "open folder to lock it", reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw PreferencesError.writeFailed(path: path, step: "lock folder", reason: String(cString: strerror(errno)))
        }
        return try body()
    }
}
