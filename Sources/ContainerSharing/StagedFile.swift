import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written beside its destination under a temporary name and renamed over it once durable, so
/// the destination is either what it was or the whole new file.
struct StagedFile {
    /// Where to write.
    let url: URL
    let destination: URL

    /// Names a temporary file in `destination`'s folder.
    ///
    /// - Throws: ``ArchiveError/unwritable(path:reason:)`` when the destination is a folder or its folder is missing.
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

    /// Syncs the written file, renames it over the destination and syncs the folder.
    func commit() throws {
        try Self.sync(url.path, destination: destination)
        guard rename(url.path, destination.path) == 0 else {
            throw ArchiveError.unwritable(path: destination.path, reason: String(cString: strerror(errno)))
        }
        try Self.sync(destination.deletingLastPathComponent().path, destination: destination)
    }

    /// Removes the temporary file if it is still there.
    func discard() {
        unlink(url.path)
    }

    private static func sync(_ path: String, destination: URL) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ArchiveError.unwritable(path: destination.path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        if fsync(descriptor) != 0, errno != EINVAL {
            throw ArchiveError.unwritable(path: destination.path, reason: String(cString: strerror(errno)))
        }
    }
}
