import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders the stores make for their files: each one missing on the way is created with mode 700,
/// whatever the umask, so the stores' files are their user's alone. Folders already there keep their mode.
enum PrivateFolders {
    /// Creates the folder at `path` and its missing parents, each with mode 700.
    ///
    /// - Throws: the `errno` of the call that failed, with the path it failed on.
    static func make(_ path: String) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return }
            throw Failure(path: path, reason: "it is not a folder")
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try make(parent) }
        if mkdir(path, 0o700) == 0 {
            // mkdir(2) may only have taken bits away; this makes the mode exact.
            guard chmod(path, 0o700) == 0 else { throw Failure(path: path, reason: Self.lastError("chmod")) }
        } else if errno != EEXIST || stat(path, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
            // Another process may have made it meanwhile; anything else is a failure.
            throw Failure(path: path, reason: Self.lastError("mkdir"))
        }
    }

    /// A folder that could not be made.
    struct Failure: Error, CustomStringConvertible {
        /// The folder that failed (the one asked for, or one of its parents).
        var path: String
        var reason: String

        var description: String { "cannot create the folder '\(path)': \(reason)" }
    }

    private static func lastError(_ call: String) -> String {
        "\(call): \(String(cString: strerror(errno)))"
    }
}
