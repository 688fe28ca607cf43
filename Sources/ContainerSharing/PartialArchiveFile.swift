import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An archive written beside its destination under a temporary name (`.NAME.partial-UUID`) and renamed
/// over it once durable, so the destination is either what it was or the whole new file.
struct PartialArchiveFile {
    /// Where to write.
    let url: URL
    let destination: URL

    /// Names a temporary file in `destination`'s folder.
    ///
    /// - Throws: ``ArchiveError/Code/unwritable`` when the destination is a folder or its folder is missing.
    init(replacing destination: URL) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), isFolder.boolValue {
            throw ArchiveError.unwritable(path: destination.path, reason: "it is a folder; name a file")
        }
        let folder = destination.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ArchiveError.unwritable(path: destination.path, reason: "the folder '\(folder.path)' does not exist")
        }
        self.destination = destination
        url = folder.appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString)")
    }

    /// Makes the written file private (0600, whatever the umask: an archive holds a container's data),
    /// syncs it, renames it over the destination and syncs the folder.
    func commit() throws {
        guard chmod(url.path, 0o600) == 0 else { throw writeFailure(errno: errno) }
        try sync(url.path)
        guard rename(url.path, destination.path) == 0 else { throw writeFailure(errno: errno) }
        try sync(destination.deletingLastPathComponent().path)
    }

    /// ``ArchiveError/Code/writeFailed`` for the destination, saying what happened in words:
    /// the `errno` of the failed call when it tells (`ENOSPC`: "No space left on device"), else a full
    /// file system when the folder has no free block left, else `error`, the writer's own account.
    ///
    /// The zip library writes through a buffered `FILE` stream whose error flag outlives the failed
    /// write, so its own errors say only `unwritableFile`, or even `unreadableFile` when the next entry
    /// reads back what the stream holds; the `errno` taken as soon as it throws, or the folder's free
    /// space, says why.
    ///
    /// - Parameters:
    ///   - code: the `errno` of the failed call; for a library's error, the `errno` it left, which the
    ///     caller set to 0 before the call.
    ///   - error: the library's error, or nil when `code` is a system call's own.
    func writeFailure(errno code: Int32, error: (any Error)? = nil) -> ArchiveError {
        .writeFailed(path: destination.path, reason: Self.writeFailureReason(errno: code, error: error, folder: destination.deletingLastPathComponent().path))
    }

    private static func writeFailureReason(errno code: Int32, error: (any Error)?, folder: String) -> String {
        let writeErrors: Set<Int32> = [ENOSPC, EDQUOT, EFBIG, EIO, EROFS, EACCES, EPERM]
        guard let error else { return String(cString: strerror(code)) }
        if writeErrors.contains(code) { return String(cString: strerror(code)) }
        var space = statvfs()
        if statvfs(folder, &space) == 0, space.f_bavail == 0 { return String(cString: strerror(ENOSPC)) }
        return "\(error)"
    }

    /// Removes the temporary file if it is still there.
    func discard() {
        unlink(url.path)
    }

    private func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw writeFailure(errno: errno) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0, errno != EINVAL { throw writeFailure(errno: errno) }
    }
}
