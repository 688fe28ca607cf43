#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file-system object an entry is: `st_dev` and `st_ino` from `lstat(2)`.
///
/// `rename(2)` within one file system keeps both, so a journal that records the identity of each entry
/// it moves can tell its own entry, wherever the move left it, from a newcomer that an application put
/// at the same path (which is a new object with another inode).
struct EntryIdentity: Codable, Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The identity of the entry at `path` (a link's own, never its target's), or nil when nothing is there.
    static func of(_ path: String) throws -> EntryIdentity? {
        try FileSystem.status(at: path).map(EntryIdentity.init)
    }
}

/// One version of a file: its identity and the time its content was last written, to the nanosecond.
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
