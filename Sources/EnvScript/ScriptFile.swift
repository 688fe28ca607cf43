import Foundation
package import LuaBridge

#if canImport(Glibc)
import Glibc
#endif

/// A script named on the command line or by the host: a regular file, or what a shell hands over in
/// its place — a character device or a pipe (`/dev/null`, `/dev/stdin`, `<(generate-script)`), read
/// to its end like any other text. `/dev/null` is thus an empty script, which runs and does nothing.
package enum ScriptFile {
    /// Compiles the script at `path` in `lua` without running it (chunk name `@path`, as given).
    ///
    /// - Throws: ``HostError/Code/scriptNotReadable`` when it cannot be read, naming what is
    ///   wrong in plain words; a `LuaError` of kind `syntax` when it does not compile.
    package static func compile(atPath path: String, in lua: LuaState) throws -> LuaFunctionRef {
        guard try isStream(path) else { return try lua.load(contentsOfFile: path) }
        // A device or a pipe can be read only once: read it here, as text.
        let bytes: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            bytes = try handle.readToEnd() ?? Data()
        } catch {
            throw HostError.scriptNotReadable(path: path, reason: FileErrorReason.describe(error))
        }
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw HostError.scriptNotReadable(
                path: path, reason: "it is not a regular file and what it gives is not UTF-8 text; save the script to a file")
        }
        return try lua.load(text, chunkName: "@" + path)
    }

    /// The folder a script at `path` makes a project folder (where `require` looks and files may be
    /// read and written): the real folder of the regular file it is, links followed
    /// (`/dev/stdin < tool.lua` is `tool.lua`'s folder); none for a pipe or a device, whose folder as
    /// named (`/dev` for `/dev/stdin`, `/proc/self/fd` for `<(…)`) is no project of the user's.
    package static func projectFolder(ofScriptAt path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return (String(cString: real) as NSString).deletingLastPathComponent
    }

    /// Throws ``HostError/Code/scriptNotReadable`` unless `path` can be read as a script.
    package static func checkReadable(_ path: String) throws {
        _ = try isStream(path)
    }

    /// Whether `path` is a character device or a pipe (else it is a readable regular file).
    private static func isStream(_ path: String) throws -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw HostError.scriptNotReadable(path: path, reason: FileErrorReason.describe(errno: errno))
        }
        let reason: String
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFCHR, S_IFIFO:
            guard access(path, R_OK) == 0 else {
                throw HostError.scriptNotReadable(path: path, reason: FileErrorReason.describe(errno: errno))
            }
            return info.st_mode & S_IFMT != S_IFREG
        case S_IFDIR: reason = "it is a folder"
        case S_IFSOCK: reason = "it is a socket, not a script file"
        case S_IFBLK: reason = "it is a block device, not a script file"
        default: reason = "it is not a script file"
        }
        throw HostError.scriptNotReadable(path: path, reason: reason)
    }
}
