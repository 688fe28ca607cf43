import EnvScript
import Foundation

/// A new folder in the temporary folder (`TMPDIR`), made 0700 in the same step (`mkdtemp`): no other
/// local user can put anything in it, whatever the umask, even for a moment.
enum PrivateTemporaryFolder {
    /// Makes `<temporary folder>/<prefix>XXXXXX` and returns it.
    static func make(prefix: String) throws -> URL {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + "XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CommandFailure.failure("envscript: cannot make a folder in \(FileManager.default.temporaryDirectory.path): \(FileErrorReason.describe(errno: errno))")
        }
        let path = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
