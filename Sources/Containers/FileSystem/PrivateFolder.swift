import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder for control sockets that no other local user can have put anything in: a directory (not a
/// link to one) owned by the effective user, which neither its group nor others may write. The folders
/// this user makes for sockets are also closed to reading and entering (mode 700), so that nobody else
/// can even connect to a socket there.
package enum PrivateFolder {
    /// Creates the folder at `path` with mode 700 whatever the umask when nothing is there; a folder
    /// already there is checked (see ``check(_:)``), and when it passes — nobody else could have put
    /// anything in it — closed to reading and entering too. A folder someone else made first is refused,
    /// never adopted.
    ///
    /// - Throws: ``ContainerError/Code/unsafeFolder``, or ``ContainerError/Code/io``
    ///   when it cannot be made.
    package static func make(_ path: String) throws {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw ContainerError.io(path: path, underlying: SystemCallError("mkdir"))
        }
        try check(path)
        // mkdir(2) may only have taken bits away; a folder of this user's made before these checks
        // existed may be open to reading (mode 755).
        guard let info = try FileSystem.status(at: path), info.st_mode & 0o7777 != 0o700 else { return }
        guard chmod(path, 0o700) == 0 else {
            throw ContainerError.io(path: path, underlying: SystemCallError("chmod"))
        }
    }

    /// Checks with `lstat(2)` that nobody but this user can have put anything in the folder at `path`:
    /// a socket found there is the one its host made.
    ///
    /// - Throws: ``ContainerError/Code/unsafeFolder`` naming what is wrong.
    package static func check(_ path: String) throws {
        if let problem = try problem(at: path) {
            throw ContainerError.unsafeFolder(path: path, reason: problem)
        }
    }

    /// What lets others put entries in `path`, in words, or nil when nothing does.
    static func problem(at path: String) throws -> String? {
        guard let info = try FileSystem.status(at: path) else { return "it does not exist" }
        switch FileSystem.kind(ofMode: info.st_mode) {
        case .directory: break
        case .symbolicLink: return "it is a symbolic link, not a folder"
        default: return "it is not a folder"
        }
        if info.st_uid != geteuid() {
            return "it belongs to uid \(info.st_uid), not to you (uid \(geteuid()))"
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            return "its mode is \(String(mode, radix: 8)), which lets others write in it; it must be 700"
        }
        return nil
    }
}
