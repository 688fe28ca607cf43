import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file holding a secret (a key file), opened so that nothing is read before it is known to be one:
/// a regular file of the user running the program, which nobody else may write. Opening never blocks on
/// a FIFO. Readers map ``Problem`` to their own errors and add their own rules (who else may read it,
/// how long it is).
package struct PrivateFile: ~Copyable {
    /// Why a file cannot be used, in words that never quote its contents.
    package enum Problem: Error, Equatable {
        /// There is no file.
        case missing
        /// A system call failed; `operation` is "open", "stat", "read"...
        case failed(operation: String, reason: String)
        /// It is not a regular file.
        case notRegular
        /// It belongs to another user.
        case foreignOwner(uid: UInt32)
        /// Others than its owner may write it; `mode` is `st_mode`.
        case writableByOthers(mode: UInt32)

        /// The problem in words, to follow "cannot use FILE:".
        package var reason: String {
            switch self {
            case .missing: return "there is no such file"
            case .failed(let operation, let reason): return "cannot \(operation) it: \(reason)"
            case .notRegular: return "it is not a regular file"
            case .foreignOwner(let uid): return "it belongs to another user (uid \(uid)); a key file must be yours"
            case .writableByOthers(let mode): return "others may write it (mode \(String(mode & 0o777, radix: 8)))"
            }
        }
    }

    /// The open descriptor, closed when this value goes away.
    package let descriptor: Int32
    /// `st_mode` when it was opened.
    package let mode: UInt32
    /// Its size when it was opened.
    package let size: Int

    /// Opens `path` with `flags` (`O_RDONLY`, or `O_RDWR | O_CREAT | O_NOFOLLOW` to create it with mode
    /// 600) and checks it.
    package init(path: String, flags: Int32) throws(Problem) {
        let fd = open(path, flags | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .failed(operation: "open", reason: Self.lastError())
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = Self.lastError()
            close(fd)
            throw .failed(operation: "stat", reason: reason)
        }
        let problem: Problem?
        if status.st_mode & S_IFMT != S_IFREG {
            problem = .notRegular
        } else if status.st_uid != geteuid() {
            problem = .foreignOwner(uid: UInt32(status.st_uid))
        } else if UInt32(status.st_mode) & 0o022 != 0 {
            problem = .writableByOthers(mode: UInt32(status.st_mode))
        } else {
            problem = nil
        }
        if let problem {
            close(fd)
            throw problem
        }
        descriptor = fd
        mode = UInt32(status.st_mode)
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Whether others than the owner may read it.
    package var isReadableByOthers: Bool { mode & 0o044 != 0 }

    /// Every byte from the current offset to the end, refusing more than `limit`; the caller zeroes the
    /// bytes once done with them.
    package func readAll(limit: Int) throws(Problem) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { buffer.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed(operation: "read", reason: Self.lastError())
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > limit { throw .failed(operation: "read", reason: "it holds more than \(limit) bytes") }
        }
    }

    /// The text of `errno`.
    package static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
