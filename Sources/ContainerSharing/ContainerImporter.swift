public import Containers
import Crypto
public import Foundation
import ZIPFoundation

extension AppContainer {
    /// Creates a new container from an archive written by ``export(container:to:)``: a new UUID, never
    /// the active one, named as in the archive unless `name` is given.
    ///
    /// Everything that can be checked before writing is checked first — paths (no absolute path, no
    /// `..`), types (no device or FIFO), links (none pointing outside the container), duplicates, the
    /// manifest against the zip entries, and `limits` — then the entries are unpacked into the home's
    /// bookkeeping area, each file's size and SHA-256 checked as it inflates, and the container appears
    /// with one rename once everything is durable. A refusal or a crash leaves no container behind.
    ///
    /// - Throws: ``ArchiveError`` naming the entry at fault; `ContainerError/Code/duplicateName` or
    ///   `ContainerError/Code/nameDiffersOnlyByCase` when the name is taken;
    ///   `ContainerError/Code/invalidName`; `ContainerError` for the home.
    @discardableResult
    public func importContainer(from url: URL, name: String? = nil, limits: ArchiveLimits = .standard) throws -> Container {
        let reader = try ArchiveReader(url: url, limits: limits)
        let manifest = reader.manifest
        let chosen = name ?? manifest.container.name
        try checkNameIsFree(chosen)
        return try createContainer(name: chosen, description: manifest.container.description) { writer in
            try ArchiveUnpacker(reader: reader, writer: writer).unpack()
        }
    }
}

/// Writes a checked archive's entries through a `TreeWriter`.
struct ArchiveUnpacker {
    let reader: ArchiveReader
    let writer: TreeWriter

    func unpack() throws {
        let entries = reader.manifest.entries
        if entries.contains(where: { $0.path.hasPrefix("hidden/") }) {
            try writer.makeDirectory("hidden", mode: 0o700)
        }
        // Links last, so no entry is ever written through one.
        var links: [ArchiveManifest.Entry] = []
        for entry in entries {
            switch entry.kind {
            case .directory:
                // The owner keeps full access to its folders, so the container can always be switched and removed.
                try writer.makeDirectory(entry.path, mode: (entry.mode ?? 0o755) & ArchiveModes.folder | 0o700)
            case .file:
                if let first = entry.hardLinkOf {
                    try writer.makeHardLink(entry.path, to: first)
                } else {
                    try unpackFile(entry)
                }
            case .symbolicLink:
                links.append(entry)
            case nil:
                break // refused by the reader
            }
        }
        for link in links {
            try writer.makeSymbolicLink(link.path, target: link.target ?? "")
        }
    }

    /// Inflates one file, counting its bytes against the manifest's size as they come (an entry that
    /// inflates past it is stopped there) and checking its SHA-256 at the end.
    private func unpackFile(_ entry: ArchiveManifest.Entry) throws {
        guard let zipEntry = reader.zipEntries[entry.path], let size = entry.size else { return }
        let refuse = { (reason: String) in
            ArchiveError.refusedEntry(archive: reader.name, entry: entry.path, reason: reason)
        }
        try writer.writeFile(entry.path, mode: (entry.mode ?? 0o644) & ArchiveModes.file) { output in
            var hasher = SHA256()
            var written: Int64 = 0
            do {
                // The SHA-256 checked below is stronger than the zip's CRC-32.
                _ = try reader.archive.extract(zipEntry, bufferSize: TreeFileInput.chunkSize, skipCRC32: true) { chunk in
                    written += Int64(chunk.count)
                    if written > size { throw refuse("it inflates past the \(size) bytes its manifest gives") }
                    hasher.update(data: chunk)
                    try output.write(chunk)
                }
            } catch let error as ArchiveError {
                throw error
            } catch let error as ContainerError {
                throw error
            } catch {
                throw refuse("it cannot be inflated (\(error)); the archive is damaged")
            }
            guard written == size else { throw refuse("it holds \(written) bytes, its manifest gives \(size)") }
            guard hasher.finalize().hexadecimal == entry.sha256?.lowercased() else {
                throw refuse("its SHA-256 does not match the manifest; the archive is damaged or was changed")
            }
        }
    }
}
