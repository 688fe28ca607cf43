#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file-system object an entry of the home is: its inode number (`st_ino` from `lstat(2)`).
///
/// `rename(2)` keeps it, so a journal that records the identity of each entry it moves can tell its own
/// entry, wherever the move left it, from a newcomer that an application put at the same path (a new
/// object, with another inode).
///
/// The device number (`st_dev`) is deliberately not part of it. Every entry a journal names is on the
/// home's file system — its moves are renames, which never cross file systems — so the inode number
/// alone tells them apart there; and the device number is not a property of the file system but of its
/// mount: the kernel hands it out at mount time, so a file system that comes back through another loop
/// device, device-mapper node or USB port has another one, although every inode is the same (ext4, XFS,
/// btrfs and the like keep inode numbers on disk). A journal that compared device numbers would be
/// refused after such a remount, leaving the home empty and its files in the stashes. The file system's
/// own id (`f_fsid` of `statfs(2)`) would not do either: several file systems derive it from the device
/// number. What stands in for the device is a check made at replay time, against the home as mounted
/// then: an object at a path that is not on the home's file system (a mount point inside the home) is
/// never taken for a recorded entry (``of(_:onDevice:)``).
///
/// Journals of format 2 also recorded `device`; it is read and ignored.
struct EntryIdentity: Codable, Hashable, Sendable {
    var inode: UInt64

    init(inode: UInt64) {
        self.inode = inode
    }

    init(_ info: stat) {
        inode = UInt64(info.st_ino)
    }

    /// The identity of the entry at `path` (a link's own, never its target's), or nil when nothing is there.
    static func of(_ path: String) throws -> EntryIdentity? {
        try FileSystem.status(at: path).map(EntryIdentity.init)
    }

    /// The identity of the entry at `path` if it is on the file system with device number `device`
    /// (the home's, as mounted now); nil when nothing is there or it is on another file system.
    static func of(_ path: String, onDevice device: UInt64) throws -> EntryIdentity? {
        guard let info = try FileSystem.status(at: path), UInt64(info.st_dev) == device else { return nil }
        return EntryIdentity(info)
    }
}

/// One version of a file: its identity (the inode number, which survives a remount; see
/// ``EntryIdentity``) and the time its content was last written, to the nanosecond.
///
/// The bookkeeping files are only ever replaced whole (a new file renamed over the old one), so a file
/// with the same stamp is the very same version. A journal keeps the stamp of `state.json` from when it
/// was written: a state record with another stamp was written after the journal (by the journal's own
/// commit, by later changes, or by a copy of the home).
struct FileStamp: Codable, Hashable, Sendable {
    var identity: EntryIdentity
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64

    /// The stamp of the file at `path`, or nil when nothing is there.
    static func of(_ path: String) throws -> FileStamp? {
        guard let info = try FileSystem.status(at: path) else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return FileStamp(
            identity: EntryIdentity(info),
            modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec))
    }
}
