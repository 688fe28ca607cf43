package import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Files as a killed writer leaves them, for tests of what cleans them up.
package enum LeftoverFile {
    /// Writes a few bytes to `name` in `folder`, last changed `age` seconds ago, and returns its path.
    @discardableResult
    package static func plant(_ name: String, in folder: URL, age: TimeInterval) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data("half a write".utf8).write(to: url)
        try backdate(url.path, by: age)
        return url.path
    }

    /// Sets the file's modification time `age` seconds in the past.
    package static func backdate(_ path: String, by age: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }

    /// Whether another process holds a `flock(2)` on the file at `path`.
    package static func isLockedElsewhere(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }
}
