import EnvScript
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a scenario report goes: standard output as it is written, or the file of `--output`, written
/// at the end.
///
/// A file is written beside its place and renamed over it once complete, so that nobody reads half a
/// report (through a symbolic link, the file it points to). What is not a regular file — a device,
/// a pipe — is written in place, never replaced; `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are the
/// process's own descriptors, written where they stand. A report that cannot be written is an error
/// that names the output and says why (status 2).
final class ReportOutput {
    private let path: String?
    private var buffered: [String] = []

    /// The report's destination, checked before anything runs: `--output` naming a folder, or a file
    /// in a folder that does not exist, is refused.
    init(path: String?) throws {
        self.path = path
        guard let path else { return }
        if isFolder(path) {
            let example = (path as NSString).appendingPathComponent("report.xml")
            throw CommandFailure.usage("--output \(path) is a folder; give the path of a file, such as \(example)")
        }
        let folder = folderPart(of: path)
        if !folder.isEmpty && !isFolder(folder) {
            let problem = FileManager.default.fileExists(atPath: folder) ? "is not a folder" : "does not exist"
            throw CommandFailure.usage("--output \(path): '\(folder)' \(problem); create the folder first or give another path")
        }
    }

    /// Writes one line (or block) of the report.
    func write(_ text: String) {
        if path == nil {
            print(text)
        } else {
            buffered.append(text)
        }
    }

    /// Saves the report to its file, or makes sure all of it reached standard output.
    func finish() throws {
        guard let path else { return try finishStandardOutput() }
        let data = Data((buffered.joined(separator: "\n") + "\n").utf8)
        do {
            if let descriptor = Self.ownDescriptor(path) {
                flushStandardOutput()
                try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
                return
            }
            let url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
            if Self.isStream(url.path) {
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                try handle.write(contentsOf: data)
            } else {
                try data.write(to: url, options: .atomic)
            }
        } catch {
            throw CommandFailure.usage("cannot write the report to --output \(path): \(FileErrorReason.describe(error))")
        }
    }

    /// Flushes standard output; a write that failed on the way (a full disk, `/dev/full`) is an error.
    /// (C's streams keep what they could not write and try again, so the flush sees the failure.)
    private func finishStandardOutput() throws {
        errno = 0
        guard fflush(nil) != 0 else { return }
        let code = errno
        let reason = code != 0 ? FileErrorReason.describe(errno: code) : "the write failed"
        throw CommandFailure.usage("cannot write the report to standard output: \(reason)")
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names: opening
    /// them again would truncate or replace whatever the process's output goes to.
    private static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Whether `path` is there and is not a regular file: a device or a pipe, to write in place.
    private static func isStream(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
    }
}
