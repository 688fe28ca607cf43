package import Foundation
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// Whole-file reads and crash-safe whole-file writes.
///
/// A write is ``Locking/AtomicWrite``'s: a temporary file in the destination's folder, flushed with
/// `fsync`, renamed over the destination, then the folder flushed so the rename survives a power loss
/// (best effort here: some file systems refuse it, and the data itself is already safe). A reader
/// therefore sees either the old content or the new one, never a mix, and a crash leaves one of the two.
/// The temporary file of a writer that was killed is removed by a later write in the same folder
/// (``Locking/WriterTemporaryFile`` says when it is safe to).
package enum AtomicFile {
    /// Writes `data` to `url` atomically, creating missing parent folders (mode 700).
    ///
    /// - Parameter permissions: the mode of the new file, set exactly whatever the umask (default
    ///   `0o600`: the stores' files are their user's alone).
    /// - Throws: ``PreferencesError/Code/writeFailed`` naming the failed step.
    package static func write(_ data: Data, to url: URL, permissions: mode_t = 0o600) throws {
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        do {
            try PrivateFolders.make(folder)
        } catch {
            throw PreferencesError.writeFailed(path: path, step: "create folder '\(error.path)'", reason: error.reason)
        }
        WriterTemporaryFile.removeAbandoned(in: folder)
        let staged = data.withUnsafeBytes { bytes in
            Result { () throws(AtomicWrite.Failure) in try AtomicWrite.stage(bytes, besides: path, mode: permissions) }
        }
        do throws(AtomicWrite.Failure) {
            try staged.get().commit(to: path)
        } catch {
            let step = ["mkstemp": "create temporary file", "fchmod": "chmod"][error.call] ?? error.call
            throw PreferencesError.writeFailed(path: path, step: step, reason: String(cString: strerror(error.code)))
        }
        try? AtomicWrite.syncFolder(folder)
    }

    /// Reads the whole file at `url`, or returns nil when it does not exist.
    ///
    /// - Throws: ``PreferencesError/Code/readFailed`` for any other failure.
    package static func read(_ url: URL) throws -> Data? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw PreferencesError.readFailed(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var result = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PreferencesError.readFailed(path: url.path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }
}
