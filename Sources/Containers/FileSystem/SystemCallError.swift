#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, and the `errno` it reported.
///
/// Carried as the underlying error of ``ContainerError/Code/io``.
package struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, for example `rename` or `open`.
    package let call: String
    /// The `errno` value the call reported.
    package let code: Int32

    /// Captures the current `errno` for `call`.
    init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// `"rename: No such file or directory (errno 2)"`.
    package var description: String {
        "\(call): \(String(cString: strerror(code))) (errno \(code))"
    }
}
