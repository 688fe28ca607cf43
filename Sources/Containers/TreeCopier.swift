import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies folder trees for ``AppContainer/clone(container:name:description:)``: files with their
/// content and permissions, folders, and symbolic links as links (never followed).
enum TreeCopier {
    /// Copies the entries of the folder `source` into the existing folder `destination`.
    ///
    /// - Parameter skip: given an entry's path components relative to `source`, whether to leave it out.
    static func copyContents(
        of source: String, into destination: String,
        skip: ([String]) -> Bool = { _ in false }
    ) throws {
        try copyContents(of: source, into: destination, components: [], skip: skip)
    }

    private static func copyContents(
        of source: String, into destination: String, components: [String], skip: ([String]) -> Bool
    ) throws {
        for entry in try FileSystem.list(source) {
            let entryComponents = components + [entry.name]
            if skip(entryComponents) { continue }
            let from = source + "/" + entry.name
            let to = destination + "/" + entry.name
            switch entry.kind {
            case .directory:
                guard let info = try FileSystem.status(at: from) else { continue }
                // Writable while filling it; its own permissions once full.
                try FileSystem.makeDirectory(to, mode: 0o700)
                try copyContents(of: from, into: to, components: entryComponents, skip: skip)
                if chmod(to, info.st_mode & 0o7777) != 0 {
                    throw ContainerError.io(path: to, underlying: SystemCallError("chmod"))
                }
            case .symbolicLink:
                try copyLink(from, to: to)
            case .regularFile:
                try copyFile(from, to: to)
            case .other:
                throw ContainerError.unsupportedFileType(path: from)
            }
        }
    }

    private static func copyLink(_ source: String, to destination: String) throws {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(source, &buffer, buffer.count - 1)
        guard length >= 0 else {
            throw ContainerError.io(path: source, underlying: SystemCallError("readlink"))
        }
        buffer[length] = 0
        if symlink(buffer, destination) != 0 {
            throw ContainerError.io(path: destination, underlying: SystemCallError("symlink"))
        }
    }

    private static func copyFile(_ source: String, to destination: String) throws {
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw ContainerError.io(path: source, underlying: SystemCallError("open")) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else {
            throw ContainerError.io(path: source, underlying: SystemCallError("fstat"))
        }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, info.st_mode & 0o7777)
        guard output >= 0 else {
            throw ContainerError.io(path: destination, underlying: SystemCallError("open"))
        }
        defer { close(output) }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ContainerError.io(path: source, underlying: SystemCallError("read"))
            }
            if count == 0 { break }
            try FileSystem.writeAll(Data(chunk[0..<count]), to: output, path: destination)
        }
        // open(2) applied the umask; the copy keeps the source's permissions.
        if fchmod(output, info.st_mode & 0o7777) != 0 {
            throw ContainerError.io(path: destination, underlying: SystemCallError("fchmod"))
        }
    }
}
