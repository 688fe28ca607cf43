#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary file of an atomic write (`<folder>/.<name>.tmp-XXXXXX`, written, then renamed over
/// `<folder>/<name>`), made so that a file left by a writer that was killed can be told from the file
/// of a writer at work, and removed by the next writer of the folder.
///
/// The writer holds an exclusive `flock(2)` on its temporary file from just after creating it until
/// the file is renamed and closed; the operating system drops the lock when the writer dies, however
/// it dies. ``removeAbandoned(in:)`` removes a temporary file only when it can take that lock itself
/// (no writer holds it) **and** the file was last changed more than ``minimumAge`` seconds ago: the age
/// covers the moment between `mkstemp(3)` and `flock(2)` in which a new file is not locked yet. A
/// live writer's file is therefore never removed, on any machine sharing the folder, and no process
/// ids are compared (they are reused, and differ between PID namespaces).
package enum WriterTemporaryFile {
    /// How long, in seconds, an unlocked temporary file must have been left unchanged before it is
    /// taken for a killed writer's.
    package static let minimumAge = 60

    /// Whether `name` is the name of such a temporary file: `.<name>.tmp-` and the six characters
    /// `mkstemp(3)` adds.
    package static func isTemporary(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let marker = Array(".tmp-".utf8)
        let random = 6
        // "." + at least one character + ".tmp-" + the random part.
        guard bytes.count >= 2 + marker.count + random, bytes[0] == UInt8(ascii: ".") else { return false }
        let markerStart = bytes.count - random - marker.count
        return Array(bytes[markerStart..<markerStart + marker.count]) == marker
            && bytes.suffix(random).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    /// Creates the temporary file for `name` in `folder` (mode 600), locked by this process.
    ///
    /// - Returns: its open descriptor and path, or nil with `errno` set when it could not be made.
    package static func create(in folder: String, for name: String) -> (descriptor: Int32, path: String)? {
        var template = Array("\(folder)/.\(name).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            unlink(path)
            close(descriptor)
            errno = code
            return nil
        }
        return (descriptor, path)
    }

    /// Removes the temporary files of killed writers from `folder` (see the type's documentation).
    /// Best effort: a file that cannot be examined or removed stays, and nothing is reported, since the
    /// write that called it does not depend on it.
    package static func removeAbandoned(in folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard isTemporary(name) else { continue }
            removeIfAbandoned(folder + "/" + name)
        }
    }

    private static func removeIfAbandoned(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var held = stat()
        guard fstat(descriptor, &held) == 0, held.st_mode & S_IFMT == S_IFREG,
              flock(descriptor, LOCK_EX | LOCK_NB) == 0
        else { return }
        #if canImport(Darwin)
        let changed = Int(held.st_mtimespec.tv_sec)
        #else
        let changed = Int(held.st_mtim.tv_sec)
        #endif
        guard changed + minimumAge < Int(time(nil)) else { return }
        // Still the file examined (not one a new writer made under the same name meanwhile).
        var current = stat()
        guard lstat(path, &current) == 0, current.st_dev == held.st_dev, current.st_ino == held.st_ino else { return }
        unlink(path)
    }
}
