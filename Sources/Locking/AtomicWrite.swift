#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// The package's one crash-safe writer of whole files, under the preferences' ``AtomicFile`` and the
/// containers' bookkeeping alike: the bytes go to a temporary file beside the destination (a
/// ``WriterTemporaryFile``, locked while it is written), get their mode exactly whatever the umask, are
/// flushed with `fsync`, and are renamed over the destination — on one file system, so atomically: a
/// reader sees the old content or the new, never a mix, and a crash leaves one of the two. The folder is
/// flushed afterwards (``syncFolder(_:)``) so that the rename survives a power loss.
package enum AtomicWrite {
    /// A system call that failed, and its `errno`.
    package struct Failure: Error, Sendable {
        /// The call: `mkstemp`, `write`, `fchmod`, `fsync`, `rename` or `open`.
        package let call: String
        /// The `errno` it reported.
        package let code: Int32
    }

    /// A temporary file written and flushed, open and locked until it is committed, kept or discarded.
    package struct Staged: Sendable {
        /// Its path: `.<name>.tmp-XXXXXX` in the destination's folder.
        package let path: String
        let descriptor: Int32

        /// Renames it over `destination` and closes it; on failure it is removed.
        package func commit(to destination: String) throws(Failure) {
            defer { close(descriptor) }
            guard rename(path, destination) == 0 else {
                let failure = Failure(call: "rename", code: errno)
                unlink(path)
                throw failure
            }
        }

        /// Closes it and leaves it where it is, for a rename by path later (a journal's staged files).
        package func keep() {
            close(descriptor)
        }

        /// Removes and closes it.
        package func discard() {
            unlink(path)
            close(descriptor)
        }

        /// Removes and closes it after `call` failed, and returns that failure (`errno` read first).
        fileprivate func abandoned(after call: String) -> Failure {
            let failure = Failure(call: call, code: errno)
            discard()
            return failure
        }
    }

    /// Writes `bytes` to a new temporary file beside `destination`, with mode `mode`, flushed to disk
    /// unless `syncing` is false; `destination` itself is not touched. On failure nothing is left.
    package static func stage(
        _ bytes: UnsafeRawBufferPointer, besides destination: String, mode: mode_t = 0o600, syncing: Bool = true
    ) throws(Failure) -> Staged {
        let slash = destination.lastIndex(of: "/")
        let folder = slash.map { String(destination[..<$0]) } ?? "."
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        guard let (descriptor, path) = WriterTemporaryFile.create(in: folder.isEmpty ? "/" : folder, for: name) else {
            throw Failure(call: "mkstemp", code: errno)
        }
        let staged = Staged(path: path, descriptor: descriptor)
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw staged.abandoned(after: "write")
            }
            offset += written
        }
        guard fchmod(descriptor, mode) == 0 else { throw staged.abandoned(after: "fchmod") }
        guard !syncing || fsync(descriptor) == 0 else { throw staged.abandoned(after: "fsync") }
        return staged
    }

    /// Flushes `folder`'s entries (a rename into it) to disk. A folder that is gone, or a file system
    /// that cannot flush folders (`EINVAL`), is no failure.
    package static func syncFolder(_ folder: String) throws(Failure) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return }
            throw Failure(call: "open", code: errno)
        }
        defer { close(descriptor) }
        if fsync(descriptor) != 0, errno != EINVAL { throw Failure(call: "fsync", code: errno) }
    }
}
