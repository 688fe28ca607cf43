import Containers
import Crypto
import Foundation
import ZIPFoundation

/// One side of a ``ContainerDiff``: what a container or an archive holds, by archive path
/// (`data/...`, `hidden/...`), and how to read a file of it.
struct DiffSide {
    /// What is known of one entry without reading its content.
    struct Facts {
        var kind: TreeEntry.Kind
        var mode: UInt16?
        var size: Int64
        var target: String?
        /// Where the file is on disk (a container's side).
        var absolutePath: String?
        /// The file's SHA-256 (an archive's side).
        var sha256: String?
    }

    let label: String
    var entries: [String: Facts] = [:]
    /// The bytes of the file at an archive path, for the property lists compared key by key.
    let read: (String) throws -> Data?

    /// The side of a container held by ``AppContainer/readContents(of:operation:_:)``.
    init(_ contents: ContainerContents, label: String) throws {
        self.label = label
        var entries: [String: Facts] = [:]
        try contents.walk { entry, isHidden in
            entries[(isHidden ? "hidden/" : "data/") + entry.path] = Facts(
                kind: entry.kind, mode: entry.kind == .symbolicLink ? nil : entry.mode, size: entry.size,
                target: entry.linkTarget, absolutePath: entry.absolutePath)
        }
        self.entries = entries
        read = { path in
            guard let facts = entries[path], facts.kind == .file, let file = facts.absolutePath,
                  facts.size <= Int64(ArchiveReader.manifestLimit) else { return nil }
            return try TreeFileInput.reading(file) { try $0.read(exactly: Int(facts.size)) }
        }
    }

    /// The side of a checked archive: the manifest's word, content read from the archive when asked.
    init(_ reader: ArchiveReader, label: String) {
        self.label = label
        var entries: [String: Facts] = [:]
        var firstDigests: [String: String] = [:]
        for entry in reader.manifest.entries {
            guard let kind = entry.kind else { continue }
            let digest = entry.hardLinkOf.flatMap { firstDigests[$0] } ?? entry.sha256
            if kind == .file, entry.hardLinkOf == nil, let digest { firstDigests[entry.path] = digest }
            entries[entry.path] = Facts(
                kind: kind, mode: entry.mode, size: entry.size ?? 0, target: entry.target, sha256: digest)
        }
        self.entries = entries
        let manifest = reader.manifest
        read = { path in
            let origin = manifest.entries.first { $0.path == path }?.hardLinkOf ?? path
            guard let zipEntry = reader.zipEntries[origin], zipEntry.uncompressedSize <= UInt64(ArchiveReader.manifestLimit) else {
                return nil
            }
            var data = Data()
            _ = try reader.archive.extract(zipEntry) { data.append($0) }
            return data
        }
    }

    /// Whether two files of equal size hold the same bytes: digests when both sides have them, a
    /// byte comparison of two files on disk, else the SHA-256 of the one on disk.
    static func sameContent(_ first: Facts, _ second: Facts) throws -> Bool {
        if let a = first.sha256, let b = second.sha256 { return a == b }
        if let a = first.absolutePath, let b = second.absolutePath { return try FileComparison.sameBytes(a, b) }
        if let path = first.absolutePath ?? second.absolutePath, let digest = first.sha256 ?? second.sha256 {
            return try FileComparison.sha256(of: path) == digest
        }
        return false
    }
}

/// Reading files on disk to compare them.
enum FileComparison {
    /// Whether the files at `first` and `second` hold the same bytes (they are known to be the same size).
    static func sameBytes(_ first: String, _ second: String) throws -> Bool {
        try TreeFileInput.reading(first) { a in
            try TreeFileInput.reading(second) { b in
                var same = true
                try a.forEachChunk { chunk in
                    guard same else { return }
                    let other = try b.read(exactly: chunk.count)
                    same = other.withUnsafeBytes { memcmp($0.baseAddress!, chunk.baseAddress!, chunk.count) == 0 }
                }
                return same
            }
        }
    }

    /// The SHA-256 of the file at `path`, lowercase hexadecimal.
    static func sha256(of path: String) throws -> String {
        var hasher = SHA256()
        try TreeFileInput.reading(path) { input in
            try input.forEachChunk { hasher.update(bufferPointer: $0) }
        }
        return hasher.finalize().hexadecimal
    }
}
