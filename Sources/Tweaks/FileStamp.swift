import Foundation

/// What `stat(2)` says of a file, to notice that it changed: device, inode, size and modification time
/// to the nanosecond — so that an editor that saves by renaming a new file over the old one is noticed
/// as well as one that writes in place. All nil when there was no file. Used by ``FileChangePoller`` and
/// by `envscript run --watch`.
package struct FileStamp: Equatable, Sendable {
    /// The file system's device number.
    package var device: UInt64?
    /// The inode number.
    package var inode: UInt64?
    /// The size in bytes.
    package var size: Int64?
    /// The modification time's whole seconds.
    package var seconds: Int?
    /// The modification time's nanoseconds.
    package var nanoseconds: Int?

    /// The file at `path` now.
    package init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        seconds = Int(info.st_mtimespec.tv_sec)
        nanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
    }

    /// Whether there was a file (or a folder) at the path.
    package var exists: Bool { inode != nil }
}
