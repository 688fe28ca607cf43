import ContainerSharing
import Containers
import Crypto
import Foundation
import TestSupport
import ZIPFoundation

/// A home with an `AppContainer`, and helpers to fill containers and read the whole home back.
struct SharingFixture {
    let folder: TemporaryFolder
    let home: URL
    let containers: AppContainer

    init(_ label: String = #function) throws {
        folder = try TemporaryFolder(label)
        home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        containers = try AppContainer(home: home)
    }

    func remove() { folder.remove() }

    /// Writes files into the live home, creating folders.
    func write(_ files: [String: String]) throws {
        for (path, text) in files {
            let url = home.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// Writes the application's preferences file in the live home: stored state and tweak overrides.
    func writePreferences(state: [String: Any], overrides: [String: [String: Any]]) throws {
        var root = state
        if !overrides.isEmpty { root["EnvScript.TweakOverrides"] = overrides }
        let data = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        let url = home.appendingPathComponent("Library/Preferences/app.plist")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Every path under the home, bookkeeping included, with each file's bytes: what "the home exactly
    /// as it was" means. The locks' files are left out (taking a lock may create them).
    func everything() throws -> [String: Data?] {
        var result: [String: Data?] = [:]
        let enumerator = FileManager.default.enumerator(atPath: home.path)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".lock") || path.contains("/hosts/") { continue }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: home.appendingPathComponent(path).path, isDirectory: &isFolder)
            result[path] = isFolder.boolValue ? nil : FileManager.default.contents(atPath: home.appendingPathComponent(path).path)
        }
        return result
    }
}

/// Writes zip archives by hand, for imports that must be refused: a manifest and entries that may
/// disagree with it.
struct CraftedArchive {
    enum Content {
        case file(Data)
        case folder
        case link(String)
    }

    var entries: [ArchiveManifest.Entry] = []
    var zipEntries: [(path: String, content: Content)] = []
    var manifestText: String?

    /// A file listed in the manifest with its true size and digest, and stored in the zip.
    mutating func addFile(_ path: String, _ text: String) {
        let data = Data(text.utf8)
        entries.append(.init(path: path, type: "file", mode: 0o644, size: Int64(data.count), sha256: Self.digest(data)))
        zipEntries.append((path, .file(data)))
    }

    mutating func addFolder(_ path: String) {
        entries.append(.init(path: path, type: "directory", mode: 0o755))
        zipEntries.append((path + "/", .folder))
    }

    mutating func addLink(_ path: String, to target: String) {
        entries.append(.init(path: path, type: "symlink", target: target))
        zipEntries.append((path, .link(target)))
    }

    static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    func write(to url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, content) in zipEntries {
            switch content {
            case .file(let data):
                try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
                    data.subdata(in: Int($0)..<Int($0) + $1)
                }
            case .folder:
                try archive.addEntry(with: path, type: .directory, uncompressedSize: Int64(0)) { _, _ in Data() }
            case .link(let target):
                let data = Data(target.utf8)
                try archive.addEntry(with: path, type: .symlink, uncompressedSize: Int64(data.count)) {
                    data.subdata(in: Int($0)..<Int($0) + $1)
                }
            }
        }
        let manifest = ArchiveManifest(
            container: .init(name: "Crafted", description: nil, createdAt: "2026-01-01T00:00:00.000Z", lastActivatedAt: nil, activatedCount: 0),
            exportedAt: "2026-01-01T00:00:00.000Z", entries: entries)
        let data = try manifestText.map { Data($0.utf8) } ?? JSONEncoder().encode(manifest)
        try archive.addEntry(with: ArchiveManifest.entryName, type: .file, uncompressedSize: Int64(data.count)) {
            data.subdata(in: Int($0)..<Int($0) + $1)
        }
    }
}
