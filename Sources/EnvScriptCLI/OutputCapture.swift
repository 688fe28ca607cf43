import EnvScript
import Foundation

/// What a worker of `envscript run --jobs N` prints, kept per file: its standard output and standard
/// error go to two files of its own (0600, in a 0700 folder), read back and emptied as each spec file
/// ends, so the run prints a file's output together, in file order. A file's output is kept up to
/// ``limit`` bytes a stream (the run's memory holds it until the files before it have ended).
final class OutputCapture {
    static let limit = 16 << 20

    /// The folder of the capture files.
    let folder: URL
    private let output: Int32
    private let errorOutput: Int32

    /// Points standard output and standard error at the capture files.
    init() throws {
        folder = try PrivateTemporaryFolder.make(prefix: "envscript-worker-")
        output = try Self.open(folder.appendingPathComponent("stdout"))
        errorOutput = try Self.open(folder.appendingPathComponent("stderr"))
        fflush(nil)
        dup2(output, 1)
        dup2(errorOutput, 2)
    }

    private static func open(_ file: URL) throws -> Int32 {
        let descriptor = Glibc.open(file.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure.failure("envscript: cannot capture a worker's output in \(file.path): \(FileErrorReason.describe(errno: errno))")
        }
        fchmod(descriptor, 0o600)
        return descriptor
    }

    /// What was printed since the last call, standard output then standard error; both files emptied.
    func take() -> (output: Data, errorOutput: Data) {
        fflush(nil)
        return (Self.take(output), Self.take(errorOutput))
    }

    private static func take(_ descriptor: Int32) -> Data {
        let size = Int(lseek(descriptor, 0, SEEK_END))
        var data = Data()
        if size > 0 {
            let kept = min(size, limit)
            data = Data(count: kept)
            let read = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, kept, 0) }
            data = data.prefix(max(read, 0))
            if size > kept {
                data.append(Data("\n[envscript: \(size - kept) more bytes of this file's output left out: a worker of --jobs keeps \(limit >> 20) MiB; --jobs 1 prints it all]\n".utf8))
            }
        }
        ftruncate(descriptor, 0)
        lseek(descriptor, 0, SEEK_SET)
        return data
    }

    /// Removes the capture files.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
