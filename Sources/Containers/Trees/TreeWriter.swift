import CFileSync
package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// Makes a folder tree inside an existing, empty folder — the one path by which clone and import
/// write a container — so that the copy is whole once ``finish()`` returns: files with their content
/// and permissions, folders, symbolic links as links, hard links as links to the same file.
///
/// Nothing is durable before ``finish()``, which syncs everything written (one `syncfs(2)` on Linux,
/// else an `fsync(2)` per file and folder). Publish the result with a `rename(2)` only after it.
/// Entries are created exclusively and never through a symbolic link; a folder is writable while it is
/// filled and takes its own permissions in ``finish()``.
package final class TreeWriter {
    /// The folder the tree is made in.
    package let root: String
    private var folderModes: [(path: String, mode: UInt16)] = []
    private var writtenFiles: [String] = []
    private var finished = false

    /// Writes into `root`, which must exist.
    package init(root: String) {
        self.root = root
    }

    /// Where `relative` is on disk.
    package func absolute(_ relative: String) -> String { root + "/" + relative }

    /// Makes the folder `relative` (its parent must exist); `mode` applies in ``finish()``.
    package func makeDirectory(_ relative: String, mode: UInt16) throws {
        try FileSystem.makeDirectory(absolute(relative), mode: 0o700)
        folderModes.append((relative, mode))
    }

    /// Creates the file `relative` with permissions `mode` and lets `fill` write its content.
    package func writeFile(_ relative: String, mode: UInt16, fill: (TreeFileOutput) throws -> Void) throws {
        let path = absolute(relative)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ContainerError.io(path: path, underlying: SystemCallError("open")) }
        defer { close(descriptor) }
        try fill(TreeFileOutput(descriptor: descriptor, path: path))
        // open(2) applied the umask; the copy has exactly the permissions asked for.
        guard fchmod(descriptor, mode_t(mode & 0o7777)) == 0 else {
            throw ContainerError.io(path: path, underlying: SystemCallError("fchmod"))
        }
        writtenFiles.append(path)
    }

    /// Copies the regular file at `source` (never following a link) to `relative` with permissions `mode`.
    package func copyFile(from source: String, to relative: String, mode: UInt16) throws {
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw ContainerError.io(path: source, underlying: SystemCallError("open")) }
        defer { close(input) }
        try writeFile(relative, mode: mode) { output in
            try TreeFileInput(descriptor: input, path: source).forEachChunk { try output.write($0) }
        }
    }

    /// Makes the symbolic link `relative` pointing to `target`, as written.
    package func makeSymbolicLink(_ relative: String, target: String) throws {
        let path = absolute(relative)
        guard symlink(target, path) == 0 else {
            throw ContainerError.io(path: path, underlying: SystemCallError("symlink"))
        }
    }

    /// Makes `relative` another name of the file already written at `existing`.
    package func makeHardLink(_ relative: String, to existing: String) throws {
        let path = absolute(relative)
        guard link(absolute(existing), path) == 0 else {
            throw ContainerError.io(path: path, underlying: SystemCallError("link to '\(absolute(existing))'"))
        }
    }

    /// Gives each folder its permissions (deepest first, so a read-only folder is filled before it
    /// closes) and makes everything written durable.
    package func finish() throws {
        guard !finished else { return }
        for folder in folderModes.reversed() {
            let path = absolute(folder.path)
            guard chmod(path, mode_t(folder.mode & 0o7777)) == 0 else {
                throw ContainerError.io(path: path, underlying: SystemCallError("chmod"))
            }
        }
        try Self.sync(root: root, files: writtenFiles, folders: [root] + folderModes.map { absolute($0.path) })
        finished = true
    }

    /// Makes the files and folders durable: one `syncfs(2)` of the file system holding `root` where
    /// the system has it, else each one's `fsync(2)`.
    static func sync(root: String, files: [String], folders: [String]) throws {
        // A tree of folders alone (a new, empty container) is cheaper to sync one folder at a time
        // than to flush the whole file system.
        if envscript_can_sync_file_system() != 0, !files.isEmpty {
            let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw ContainerError.io(path: root, underlying: SystemCallError("open")) }
            defer { close(descriptor) }
            guard envscript_sync_file_system(descriptor) == 0 else {
                throw ContainerError.io(path: root, underlying: SystemCallError("syncfs"))
            }
            return
        }
        for file in files {
            let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { throw ContainerError.io(path: file, underlying: SystemCallError("open")) }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { throw ContainerError.io(path: file, underlying: SystemCallError("fsync")) }
        }
        for folder in folders { try FileSystem.syncDirectory(folder) }
    }
}

/// The content of a file a `TreeWriter` is making.
package struct TreeFileOutput {
    let descriptor: Int32
    let path: String

    /// Appends `bytes` to the file.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        try FileSystem.writeAll(bytes, to: descriptor, path: path)
    }

    /// Appends `data` to the file.
    package func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }
}

/// Reads an open file in chunks, for copies that stream a file's content.
package struct TreeFileInput {
    let descriptor: Int32
    let path: String

    /// The size of each chunk read.
    package static let chunkSize = 256 * 1024

    /// Opens the regular file at `path` (never following a link) and calls `body` with its reader.
    package static func reading<Result>(_ path: String, _ body: (TreeFileInput) throws -> Result) throws -> Result {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw ContainerError.io(path: path, underlying: SystemCallError("open")) }
        defer { close(descriptor) }
        return try body(TreeFileInput(descriptor: descriptor, path: path))
    }

    /// The next `count` bytes of the file.
    ///
    /// - Throws: ``ContainerError/Code/io`` when the file ends first (it shrank since its
    ///   size was read).
    package func read(exactly count: Int) throws -> Data {
        var data = Data(count: count)
        var filled = 0
        try data.withUnsafeMutableBytes { buffer in
            while filled < count {
                let got = systemRead(descriptor, buffer.baseAddress! + filled, count - filled)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ContainerError.io(path: path, underlying: SystemCallError("read"))
                }
                if got == 0 {
                    throw ContainerError.io(path: path, underlying: SystemCallError("read (the file shrank while it was copied)", code: EIO))
                }
                filled += got
            }
        }
        return data
    }

    /// Calls `body` with each chunk of the file from where the reader stands to its end.
    package func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = systemRead(descriptor, buffer.baseAddress!, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ContainerError.io(path: path, underlying: SystemCallError("read"))
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
