import Foundation
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an entry of a folder is, as `lstat(2)` sees it: links are never followed.
enum EntryKind: Sendable, Equatable {
    case directory
    case symbolicLink
    case regularFile
    /// A FIFO, socket or device.
    case other
}

/// One entry of a folder listing.
struct FolderEntry: Sendable {
    let name: String
    let kind: EntryKind
}

/// The thin layer over POSIX calls that the engine needs. Every failure becomes a
/// ``ContainerError/Code/io`` naming the path; nothing resolves symbolic links (but
/// ``statusFollowingLink(at:)``, for the home folder).
enum FileSystem {
    /// The kind of the entry at `path`, or nil when nothing is there.
    static func kind(at path: String) throws -> EntryKind? {
        try status(at: path).map { kind(ofMode: $0.st_mode) }
    }

    /// `lstat(2)` of `path`, or nil when nothing is there.
    static func status(at path: String) throws -> stat? {
        var info = stat()
        if lstat(path, &info) == 0 { return info }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw ContainerError.io(path: path, underlying: SystemCallError("lstat"))
    }

    /// `stat(2)` of `path`, following a symbolic link at its end, or nil when nothing (or a dangling link)
    /// is there. Only for the home folder itself, which may be a link to a folder elsewhere (on another
    /// file system, even): what matters about it is the folder its entries are in.
    static func statusFollowingLink(at path: String) throws -> stat? {
        var info = stat()
        if stat(path, &info) == 0 { return info }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw ContainerError.io(path: path, underlying: SystemCallError("stat"))
    }

    /// Whether anything (a link counts, even a dangling one) is at `path`.
    static func exists(_ path: String) throws -> Bool {
        try status(at: path) != nil
    }

    static func kind(ofMode mode: mode_t) -> EntryKind {
        switch mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    /// The entries of the folder at `path`, sorted by name, without `.` and `..`.
    ///
    /// Names that are not valid UTF-8 are refused rather than silently mangled, since a mangled name
    /// could not be renamed back.
    static func list(_ path: String) throws -> [FolderEntry] {
        guard let folder = opendir(path) else {
            throw ContainerError.io(path: path, underlying: SystemCallError("opendir"))
        }
        defer { closedir(folder) }
        var entries: [FolderEntry] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw ContainerError.io(path: path, underlying: SystemCallError("readdir")) }
                break
            }
            let decoded: String? = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(validatingCString: $0)
                }
            }
            guard let name = decoded else {
                throw ContainerError.unsupportedFileName(folder: path)
            }
            if name == "." || name == ".." { continue }
            let kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_REG): kind = .regularFile
            case Int32(DT_UNKNOWN):
                // Some file systems do not fill d_type; ask lstat, and skip an entry that vanished.
                guard let found = try Self.kind(at: path + "/" + name) else { continue }
                kind = found
            default: kind = .other
            }
            entries.append(FolderEntry(name: name, kind: kind))
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// `rename(2)`: atomic, moves a symbolic link as a link, and a folder with everything inside it.
    static func rename(_ source: String, to destination: String) throws {
        if systemRename(source, destination) != 0 {
            throw ContainerError.io(path: source, underlying: SystemCallError("rename to '\(destination)'"))
        }
    }

    /// `rename(2)` that never replaces anything: returns false, having moved nothing, when an entry is
    /// already at `destination`.
    ///
    /// A plain `rename(2)` silently replaces a file, or an empty folder, that an application created at
    /// `destination` a moment before. This one asks the kernel to refuse instead (`renameat2` with
    /// `RENAME_NOREPLACE` on Linux, `renamex_np` with `RENAME_EXCL` on Apple platforms); where the file
    /// system cannot, it looks first, which leaves a window of microseconds instead of none.
    static func renameWithoutReplacing(_ source: String, to destination: String) throws -> Bool {
        if let refused = exclusiveRename(source, destination) {
            if refused == 0 { return true }
            let code = errno
            if code == EEXIST { return false }
            if code != EINVAL, code != ENOSYS, code != ENOTSUP {
                throw ContainerError.io(path: source, underlying: SystemCallError("rename to '\(destination)'", code: code))
            }
        }
        if try exists(destination) { return false }
        try rename(source, to: destination)
        return true
    }

    /// Creates the folder at `path` with exactly `mode` whatever the umask (the engine's own folders are
    /// 700; a stash folder standing for one of the application's takes that folder's mode); an existing
    /// folder is fine and keeps its mode, anything else there is an error.
    static func makeDirectory(_ path: String, mode: mode_t = 0o700) throws {
        if mkdir(path, mode) == 0 {
            guard chmod(path, mode) == 0 else {
                throw ContainerError.io(path: path, underlying: SystemCallError("chmod"))
            }
            return
        }
        let code = errno
        if code == EEXIST, try kind(at: path) == .directory { return }
        throw ContainerError.io(path: path, underlying: SystemCallError("mkdir", code: code))
    }

    /// Creates the folder at `path` with mode 700 whatever the umask, like ``makeDirectory(_:mode:)``;
    /// an existing folder of this user's that others may read or enter (made by a version that left its
    /// mode to the umask) is closed to them. For the bookkeeping folder, which holds every store's lock,
    /// the journal and the hosts' records.
    static func makePrivateDirectory(_ path: String) throws {
        if mkdir(path, 0o700) == 0 {
            guard chmod(path, 0o700) == 0 else {
                throw ContainerError.io(path: path, underlying: SystemCallError("chmod"))
            }
            return
        }
        let code = errno
        guard code == EEXIST, let info = try status(at: path), kind(ofMode: info.st_mode) == .directory else {
            throw ContainerError.io(path: path, underlying: SystemCallError("mkdir", code: code))
        }
        if info.st_mode & 0o077 != 0, info.st_uid == geteuid(), chmod(path, info.st_mode & 0o700) != 0 {
            throw ContainerError.io(path: path, underlying: SystemCallError("chmod"))
        }
    }

    /// Removes the folder at `path` if it is empty; an absent or non-empty folder is left as it is, and
    /// so is anything there that is not a folder (it is not the one to remove).
    static func removeDirectoryIfEmpty(_ path: String) throws {
        if rmdir(path) == 0 { return }
        switch errno {
        case ENOENT, ENOTEMPTY, EEXIST, ENOTDIR: return
        default: throw ContainerError.io(path: path, underlying: SystemCallError("rmdir"))
        }
    }

    /// Removes whatever is at `path`, a folder with all its contents; links are removed, not followed.
    /// Nothing there is fine, and so is another process removing the same tree at the same time.
    static func removeTree(_ path: String) throws {
        guard let info = try status(at: path) else { return }
        if kind(ofMode: info.st_mode) == .directory {
            // A folder copied or imported read-only (0o555) is ours to remove: open it up first.
            if info.st_mode & 0o700 != 0o700 { _ = chmod(path, (info.st_mode & 0o7777) | 0o700) }
            let entries: [FolderEntry]
            do {
                entries = try list(path)
            } catch let error as ContainerError where error.code == .io && (error.underlyingError as? SystemCallError)?.code == ENOENT {
                return
            }
            for entry in entries {
                let child = path + "/" + entry.name
                if entry.kind == .directory {
                    try removeTree(child)
                } else if unlink(child) != 0, errno != ENOENT {
                    throw ContainerError.io(path: child, underlying: SystemCallError("unlink"))
                }
            }
            if rmdir(path) != 0, errno != ENOENT {
                throw ContainerError.io(path: path, underlying: SystemCallError("rmdir"))
            }
        } else if unlink(path) != 0, errno != ENOENT {
            throw ContainerError.io(path: path, underlying: SystemCallError("unlink"))
        }
    }

    /// Flushes a folder's entries (renames into and out of it) to stable storage.
    ///
    /// File systems that cannot sync a folder report `EINVAL`; their renames are as durable as they get,
    /// so that one answer is not an error. Nothing there, or something that is not a folder, has no
    /// entries to sync.
    static func syncDirectory(_ path: String) throws {
        do throws(AtomicWrite.Failure) {
            try AtomicWrite.syncFolder(path)
        } catch {
            throw ContainerError.io(path: path, underlying: SystemCallError(error.call, code: error.code))
        }
    }

    /// The whole file at `path`, or nil when it does not exist.
    static func read(_ path: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw ContainerError.io(path: path, underlying: SystemCallError("open"))
        }
        defer { close(descriptor) }
        var result = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ContainerError.io(path: path, underlying: SystemCallError("read"))
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// Writes all of `data` to an open descriptor.
    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: path) }
    }

    /// Writes all of `buffer` to an open descriptor.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < buffer.count {
            let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ContainerError.io(path: path, underlying: SystemCallError("write"))
            }
            offset += written
        }
    }

    /// Replaces the file at `path` with `data` so that a crash leaves either the old or the new content:
    /// a temporary file in the same folder, fsync, `rename(2)` over `path`, fsync of the folder.
    ///
    /// - Parameters:
    ///   - durably: false for a file that means nothing once the processes of the machine are gone (a
    ///     running host's record): readers still see the old or the new content, never a part, but nothing
    ///     waits for the disk (two fsyncs, milliseconds on a real disk, on a host's way to open).
    ///   - staged: called once the temporary file is durable, just before the rename (a point where a
    ///     crash must leave the old content).
    static func writeAtomically(_ data: Data, to path: String, durably: Bool = true, staged: () -> Void = {}) throws {
        let file = try stage(data, besides: path, syncing: durably)
        staged()
        do throws(AtomicWrite.Failure) {
            try file.commit(to: path)
        } catch {
            throw ContainerError.io(path: file.path, underlying: SystemCallError("rename to '\(path)'", code: error.code))
        }
        if durably { try syncDirectory((path as NSString).deletingLastPathComponent) }
    }

    /// Writes `data` to a new temporary file (mode 600) in the folder of `path`, named
    /// `.<name>.tmp-XXXXXX`, and makes it durable unless `syncing` is false (with `syncingFolder`, its name
    /// too); `path` itself is not touched.
    /// Renaming it over `path` later needs no free space, so a change can write all it will need before
    /// it changes anything (see ``Journal/staged``). A leftover is removed when the home is next opened.
    ///
    /// - Returns: the temporary file's path.
    static func writeStaged(_ data: Data, besides path: String, syncing: Bool = true, syncingFolder: Bool = true) throws -> String {
        let file = try stage(data, besides: path, syncing: syncing)
        file.keep()
        if syncing && syncingFolder {
            do {
                try syncDirectory((path as NSString).deletingLastPathComponent)
            } catch {
                unlink(file.path)
                throw error
            }
        }
        return file.path
    }

    /// `data` in a temporary file beside `path` (``Locking/AtomicWrite``, the package's one atomic writer),
    /// open until committed or kept.
    private static func stage(_ data: Data, besides path: String, syncing: Bool) throws -> AtomicWrite.Staged {
        let staged = data.withUnsafeBytes { bytes in
            Result { () throws(AtomicWrite.Failure) in try AtomicWrite.stage(bytes, besides: path, syncing: syncing) }
        }
        do throws(AtomicWrite.Failure) {
            return try staged.get()
        } catch {
            throw ContainerError.io(path: path, underlying: SystemCallError(error.call, code: error.code))
        }
    }

    /// Removes the file at `path`; an absent file is fine.
    static func removeFile(_ path: String) throws {
        if unlink(path) != 0, errno != ENOENT {
            throw ContainerError.io(path: path, underlying: SystemCallError("unlink"))
        }
    }
}

/// A rename that fails with `EEXIST` rather than replace `destination`: the C call's result, or nil when
/// the C library has no such call.
#if canImport(Darwin)
private func exclusiveRename(_ source: String, _ destination: String) -> Int32? {
    renamex_np(source, destination, UInt32(RENAME_EXCL))
}
#else
/// `renameat2(2)`, looked up at run time: the C library declares it only for `_GNU_SOURCE`, which Swift's
/// module of it does not define. The address is kept as an integer so that it can be a global constant.
private let renameat2Address: UInt? = dlsym(nil, "renameat2").map { UInt(bitPattern: $0) }

private func exclusiveRename(_ source: String, _ destination: String) -> Int32? {
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    guard let address = renameat2Address, let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
    let renameat2 = unsafeBitCast(pointer, to: RenameAt2.self)
    let noReplace: UInt32 = 1 // RENAME_NOREPLACE in <linux/fs.h>
    return renameat2(AT_FDCWD, source, AT_FDCWD, destination, noReplace)
}
#endif

// The module-qualified names keep Foundation's and the C library's overloads apart.
#if canImport(Glibc)
private func systemRename(_ a: String, _ b: String) -> Int32 { Glibc.rename(a, b) }
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
#elseif canImport(Musl)
private func systemRename(_ a: String, _ b: String) -> Int32 { Musl.rename(a, b) }
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Musl.read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Musl.write(fd, buffer, count) }
#else
private func systemRename(_ a: String, _ b: String) -> Int32 { Darwin.rename(a, b) }
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
#endif
