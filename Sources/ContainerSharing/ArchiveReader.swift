import Containers
import Foundation
import ZIPFoundation

/// An opened container archive whose manifest and zip entries were checked against each other and
/// against the rules of a container, before anything is written: what ``AppContainer/importContainer(from:name:limits:)``
/// unpacks and ``ContainerDiff`` compares.
struct ArchiveReader {
    let archive: Archive
    let manifest: ArchiveManifest
    /// The zip entry of each manifest path that has one (folders may have none, hard links have none).
    let zipEntries: [String: ZIPFoundation.Entry]
    /// The archive's path, for messages.
    let name: String

    /// The most bytes a manifest may have.
    static let manifestLimit = 64 << 20

    /// Opens and checks the archive at `url`.
    ///
    /// - Throws: ``ArchiveError`` naming the archive and the entry at fault.
    init(url: URL, limits: ArchiveLimits) throws {
        name = url.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw ArchiveError.unreadable(archive: name, reason: "no such file")
        }
        guard !isFolder.boolValue else { throw ArchiveError.unreadable(archive: name, reason: "it is a folder") }
        guard try ZipEndRecord.isPresent(in: url) else {
            throw ArchiveError.unreadable(archive: name, reason: "not a zip archive, or a truncated or damaged one (its last 64 KiB hold no end-of-archive record)")
        }
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw ArchiveError.unreadable(archive: name, reason: "not a zip archive, or a truncated or damaged one")
        }
        var byPath: [String: ZIPFoundation.Entry] = [:]
        var manifestEntry: ZIPFoundation.Entry?
        for entry in archive {
            if entry.path == ArchiveManifest.entryName {
                guard manifestEntry == nil else {
                    throw ArchiveError.badManifest(archive: name, reason: "it appears twice")
                }
                manifestEntry = entry
                continue
            }
            var path = entry.path
            if entry.type == .directory, path.hasSuffix("/") { path.removeLast() }
            if let problem = ArchivePath.problem(with: path) {
                throw ArchiveError.refusedEntry(archive: name, entry: path, reason: problem)
            }
            guard byPath.updateValue(entry, forKey: path) == nil else {
                throw ArchiveError.refusedEntry(archive: name, entry: path, reason: "it appears twice in the archive")
            }
            if byPath.count > limits.maxFiles {
                throw ArchiveError.overLimit(archive: name, reason: "it holds more than \(limits.maxFiles) entries (--max-files)")
            }
        }
        guard let manifestEntry else {
            throw ArchiveError.badManifest(archive: name, reason: "the archive has none")
        }
        manifest = try Self.readManifest(manifestEntry, of: archive, name: name)
        zipEntries = byPath
        try check(limits: limits)
    }

    private static func readManifest(_ entry: ZIPFoundation.Entry, of archive: Archive, name: String) throws -> ArchiveManifest {
        guard entry.uncompressedSize <= UInt64(manifestLimit) else {
            throw ArchiveError.badManifest(archive: name, reason: "it is larger than \(manifestLimit >> 20) MiB")
        }
        var data = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                data.append(chunk)
                if data.count > manifestLimit { throw ArchiveError.badManifest(archive: name, reason: "it inflates past \(manifestLimit >> 20) MiB") }
            }
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError.badManifest(archive: name, reason: "it cannot be read (\(error))")
        }
        // The format and version first: a manifest of another version may describe its container otherwise.
        struct Header: Decodable { var format: String; var version: Int }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw ArchiveError.badManifest(archive: name, reason: "it is not a manifest this version reads")
        }
        guard header.format == ArchiveManifest.formatName else {
            throw ArchiveError.badManifest(archive: name, reason: "its format is '\(header.format)', not '\(ArchiveManifest.formatName)'")
        }
        guard ArchiveManifest.readableVersions.contains(header.version) else {
            throw ArchiveError.badManifest(
                archive: name,
                reason: "it is version \(header.version); this version of envscript reads versions \(ArchiveManifest.readableVersions.lowerBound) to \(ArchiveManifest.readableVersions.upperBound)")
        }
        let manifest: ArchiveManifest
        do {
            manifest = try JSONDecoder().decode(ArchiveManifest.self, from: data)
        } catch {
            throw ArchiveError.badManifest(archive: name, reason: "it is not a manifest this version reads")
        }
        return manifest
    }

    /// Every rule, manifest against itself, against the zip entries and against the limits.
    private func check(limits: ArchiveLimits) throws {
        guard manifest.entries.count <= limits.maxFiles else {
            throw ArchiveError.overLimit(
                archive: name, reason: "it holds \(manifest.entries.count) entries, more than \(limits.maxFiles) (--max-files)")
        }
        var kinds: [String: TreeEntry.Kind] = [:]
        var firstSizes: [String: Int64] = [:]
        var total: Int64 = 0
        for entry in manifest.entries {
            func refuse(_ reason: String) -> ArchiveError {
                ArchiveError.refusedEntry(archive: name, entry: entry.path, reason: reason)
            }
            if let problem = ArchivePath.problem(with: entry.path) { throw refuse(problem) }
            guard let kind = entry.kind else {
                throw refuse("its type is '\(entry.type)'; only files, folders and symbolic links are imported, never devices or FIFOs")
            }
            guard kinds[entry.path] == nil else { throw refuse("it appears twice in the manifest") }
            let parent = ArchivePath.parent(of: entry.path)
            guard ArchivePath.roots.contains(parent) || kinds[parent] == .directory else {
                throw refuse("its folder '\(parent)' is not a folder listed before it")
            }
            let zipEntry = zipEntries[entry.path]
            switch kind {
            case .directory:
                if let zipEntry, zipEntry.type != .directory { throw refuse("the manifest says folder, the archive holds a \(zipEntry.type)") }
            case .symbolicLink:
                guard entry.target != nil else { throw refuse("the manifest gives no target") }
                guard let zipEntry, zipEntry.type == .symlink else { throw refuse("the archive holds no symbolic link for it") }
            case .file:
                guard let size = entry.size, size >= 0 else { throw refuse("the manifest gives no size") }
                if let first = entry.hardLinkOf {
                    guard let firstSize = firstSizes[first] else {
                        throw refuse("it is a hard link to '\(first)', which is not a file listed before it")
                    }
                    guard firstSize == size else { throw refuse("a hard link whose size differs from its file's") }
                    guard zipEntry == nil else { throw refuse("a hard link with content of its own") }
                } else {
                    guard let digest = entry.sha256, digest.count == 64, digest.allSatisfy(\.isHexDigit) else {
                        throw refuse("the manifest gives no SHA-256")
                    }
                    guard let zipEntry, zipEntry.type == .file else { throw refuse("the archive holds no file for it") }
                    guard zipEntry.uncompressedSize == UInt64(size) else {
                        throw refuse("the archive says \(zipEntry.uncompressedSize) bytes, the manifest \(size)")
                    }
                    firstSizes[entry.path] = size
                    total += size
                    if total > limits.maxSize {
                        throw ArchiveError.overLimit(
                            archive: name, reason: "its files hold more than \(limits.maxSize) bytes (--max-size)")
                    }
                }
            }
            kinds[entry.path] = kind
        }
        // Links once every entry is known: a link may point to one listed after it.
        for entry in manifest.entries where entry.kind == .symbolicLink {
            let target = entry.target ?? ""
            guard ArchivePath.linkStaysInside(entry.path, target: target, isLink: { kinds[$0] == .symbolicLink }) else {
                throw ArchiveError.refusedEntry(
                    archive: name, entry: entry.path,
                    reason: "a symbolic link pointing outside the container, into its bookkeeping or through another link ('\(target)')")
            }
        }
        for path in zipEntries.keys where kinds[path] == nil {
            throw ArchiveError.refusedEntry(archive: name, entry: path, reason: "it is not listed in the manifest")
        }
    }
}
