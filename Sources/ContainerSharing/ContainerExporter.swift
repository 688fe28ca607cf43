public import Containers
import Crypto
public import Foundation
import ZIPFoundation

extension AppContainer {
    /// Writes `container` to a zip archive at `destination`: its entries under `data/` (and `hidden/`),
    /// its metadata, and a manifest with each entry's permissions, size and SHA-256
    /// (``ArchiveManifest``). Symbolic links stay links and hard links are recorded, not copied twice.
    ///
    /// The archive is written beside `destination` and renamed over it once durable, so a crash leaves
    /// either no archive or a whole one. The home is held while the entries are read (no switch moves
    /// them); for the active container the participants flush first, so the archive holds what the
    /// application last wrote. Secure state stays sealed: its key is never part of a container.
    ///
    /// - Returns: the manifest written.
    /// - Throws: `ContainerError` for the container and its files (a FIFO or device in it is refused
    ///   by name), ``ArchiveError/Code/unwritable`` when `destination` is a folder or in none,
    ///   ``ArchiveError/Code/writeFailed`` when writing it failed (no space left...): no archive,
    ///   whole or partial, is left at `destination` then.
    @discardableResult
    public func export(container: Container, to destination: URL) throws -> ArchiveManifest {
        let staging = try PartialArchiveFile(replacing: destination)
        defer { staging.discard() }
        let manifest = try readContents(of: container, operation: "export a container") { contents in
            try ArchiveWriter.write(contents, to: staging)
        }
        try staging.commit()
        return manifest
    }
}

/// Writes one container's entries into a new zip archive.
enum ArchiveWriter {
    static func write(_ contents: ContainerContents, to staging: PartialArchiveFile) throws -> ArchiveManifest {
        let archive: Archive
        do {
            errno = 0
            archive = try Archive(url: staging.url, accessMode: .create)
        } catch {
            throw staging.writeFailure(errno: errno, error: error)
        }
        var entries: [ArchiveManifest.Entry] = []
        try contents.walk { entry, isHidden in
            let path = (isHidden ? "hidden/" : "data/") + entry.path
            switch entry.kind {
            case .directory:
                try add(to: archive, staging) {
                    try archive.addEntry(
                        with: path + "/", type: .directory, uncompressedSize: Int64(0), permissions: entry.mode,
                        provider: { _, _ in Data() })
                }
                entries.append(.init(path: path, type: entry.kind.rawValue, mode: entry.mode & ArchiveModes.folder))
            case .symbolicLink:
                let target = Data((entry.linkTarget ?? "").utf8)
                try add(to: archive, staging) {
                    try archive.addEntry(
                        with: path, type: .symlink, uncompressedSize: Int64(target.count), permissions: 0o777,
                        provider: { position, size in target.subdata(in: Int(position)..<Int(position) + size) })
                }
                entries.append(.init(path: path, type: entry.kind.rawValue, target: entry.linkTarget))
            case .file:
                if let first = entry.hardLinkOf {
                    let firstPath = (isHidden ? "hidden/" : "data/") + first
                    entries.append(.init(
                        path: path, type: entry.kind.rawValue, mode: entry.mode & ArchiveModes.file, size: entry.size, hardLinkOf: firstPath))
                    return
                }
                let digest = try addFile(entry, at: path, to: archive, staging: staging)
                entries.append(.init(
                    path: path, type: entry.kind.rawValue, mode: entry.mode & ArchiveModes.file, size: entry.size, sha256: digest))
            }
        }
        let container = contents.container
        let manifest = ArchiveManifest(
            container: ContainerView(container, activeUUID: contents.isLive ? container.uuid : nil),
            exportedAt: ISO8601.string(Date()), entries: entries)
        let manifestData = try manifest.encoded()
        try add(to: archive, staging) {
            try archive.addEntry(
                with: ArchiveManifest.entryName, type: .file, uncompressedSize: Int64(manifestData.count),
                compressionMethod: .deflate,
                provider: { position, size in manifestData.subdata(in: Int(position)..<Int(position) + size) })
        }
        return manifest
    }

    /// Adds a file's content, compressed, and returns its SHA-256. The content is read in the chunks
    /// the archive asks for; a file that shrinks meanwhile is an error rather than a short entry.
    private static func addFile(_ entry: TreeEntry, at path: String, to archive: Archive, staging: PartialArchiveFile) throws -> String {
        var hasher = SHA256()
        try TreeFileInput.reading(entry.absolutePath) { input in
            try add(to: archive, staging) {
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: entry.size, permissions: entry.mode,
                    compressionMethod: .deflate, bufferSize: TreeFileInput.chunkSize,
                    provider: { _, size in
                        let chunk = try input.read(exactly: size)
                        hasher.update(data: chunk)
                        return chunk
                    })
            }
        }
        return hasher.finalize().hexadecimal
    }

    /// Runs an `addEntry`, turning the archive library's errors into ``ArchiveError/Code/writeFailed``
    /// (in words: ``PartialArchiveFile/writeFailure(errno:error:)``) and letting the engine's own (a file that
    /// could not be read) through.
    private static func add(to archive: Archive, _ staging: PartialArchiveFile, _ body: () throws -> Void) throws {
        do {
            errno = 0 // so that what the library leaves in it is its own failure's
            try body()
        } catch let error as ContainerError {
            throw error
        } catch {
            throw staging.writeFailure(errno: errno, error: error)
        }
    }
}

extension Digest {
    /// The digest as lowercase hexadecimal.
    var hexadecimal: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(Self.byteCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The permission bits an archive carries: no set-user-ID or set-group-ID bit ever travels; folders
/// keep their sticky bit.
enum ArchiveModes {
    static let file: UInt16 = 0o777
    static let folder: UInt16 = 0o1777
}

/// Dates in a manifest: ISO 8601 with milliseconds, as the container metadata writes them.
enum ISO8601 {
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
