#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks a folder tree for the copies a container makes of itself (clone, export, diff): folders
/// before what they hold, names in byte order, symbolic links as links (never followed), and hard links
/// recognised so a copy can keep them.
package enum TreeWalker {
    /// Calls `visit` with each entry under `root` (not `root` itself).
    ///
    /// - Parameters:
    ///   - root: the folder to walk.
    ///   - skip: given an entry's path components relative to `root`, whether to leave it (and
    ///     everything under it) out.
    ///   - visit: called with each entry, a folder before what it holds.
    /// - Throws: ``ContainerError/Code/unsupportedFileType`` for a FIFO, socket or device, which no
    ///   copy could make again; ``ContainerError/Code/io`` when an entry cannot be read.
    package static func walk(
        _ root: String, skip: ([String]) -> Bool = { _ in false }, visit: (TreeEntry) throws -> Void
    ) throws {
        var firstNames: [EntryIdentity: String] = [:]
        try walk(root, components: [], skip: skip, firstNames: &firstNames, visit: visit)
    }

    private static func walk(
        _ folder: String, components: [String], skip: ([String]) -> Bool,
        firstNames: inout [EntryIdentity: String], visit: (TreeEntry) throws -> Void
    ) throws {
        for listed in try FileSystem.list(folder) {
            let entryComponents = components + [listed.name]
            if skip(entryComponents) { continue }
            let absolute = folder + "/" + listed.name
            let relative = entryComponents.joined(separator: "/")
            // Vanished since the listing: nothing to copy.
            guard let info = try FileSystem.status(at: absolute) else { continue }
            let mode = UInt16(info.st_mode & 0o7777)
            switch FileSystem.kind(ofMode: info.st_mode) {
            case .directory:
                try visit(TreeEntry(path: relative, kind: .directory, mode: mode, absolutePath: absolute))
                try walk(absolute, components: entryComponents, skip: skip, firstNames: &firstNames, visit: visit)
            case .symbolicLink:
                let target = try readLink(absolute)
                try visit(TreeEntry(path: relative, kind: .symbolicLink, mode: 0, linkTarget: target, absolutePath: absolute))
            case .regularFile:
                var hardLinkOf: String?
                if info.st_nlink > 1 {
                    let identity = EntryIdentity(info)
                    if let first = firstNames[identity] { hardLinkOf = first } else { firstNames[identity] = relative }
                }
                try visit(TreeEntry(
                    path: relative, kind: .file, mode: mode, size: Int64(info.st_size), hardLinkOf: hardLinkOf,
                    absolutePath: absolute))
            case .other:
                throw ContainerError.unsupportedFileType(path: absolute)
            }
        }
    }

    /// The target of the symbolic link at `path`, as written.
    ///
    /// - Throws: ``ContainerError/Code/unsupportedFileName`` when the target is not valid UTF-8,
    ///   which no copy could write back unchanged.
    package static func readLink(_ path: String) throws -> String {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!, $0.count - 1) }
        guard length >= 0 else {
            throw ContainerError.io(path: path, underlying: SystemCallError("readlink"))
        }
        guard let target = String(validating: buffer[0..<length], as: UTF8.self) else {
            throw ContainerError.unsupportedFileName(folder: path)
        }
        return target
    }
}
