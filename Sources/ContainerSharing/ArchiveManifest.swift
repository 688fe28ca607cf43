public import Containers
import Foundation

/// The table of contents of a container archive, stored in it as `envscript-container.json`: which
/// container it came from and, for each entry, what it is, its permissions, size and SHA-256.
///
/// Entry paths start with `data/` (the container's entries) or `hidden/` (its entries hidden behind
/// excluded ones of the live home). A folder comes before what it holds; a hard link names an earlier
/// file. The manifest is the authority on import: every zip entry must be in it and agree with it.
public struct ArchiveManifest: Codable, Sendable, Equatable {
    /// The manifest's own name inside the archive.
    package static let entryName = "envscript-container.json"
    /// What `format` must say.
    package static let formatName = "envscript-container"
    /// The version this build writes. It reads this one and every earlier one (`readableVersions`).
    package static let currentVersion = 2
    /// The versions this build reads: 1, whose container was described by five camel-case fields, and 2,
    /// whose container is a `ContainerView` (module Containers) as the API shows it.
    package static let readableVersions = 1...2

    /// Always `formatName`: what tells an EnvScript archive from another zip.
    public var format: String
    /// The format version the archive was written in (`currentVersion` for this build).
    public var version: Int
    /// The container as it was when exported, as every front door shows one.
    public var container: ContainerView
    /// When the archive was written, ISO 8601.
    public var exportedAt: String
    /// Every entry of the container, with its kind, mode, size and SHA-256.
    public var entries: [Entry]

    /// One entry of the container.
    public struct Entry: Codable, Sendable, Equatable {
        /// `data/...` or `hidden/...`, components joined with `/`.
        public var path: String
        /// `file`, `directory` or `symlink`; anything else is refused on import.
        public var type: String
        /// Permission bits, for files and folders.
        public var mode: UInt16?
        /// A file's size in bytes.
        public var size: Int64?
        /// A file's SHA-256, lowercase hexadecimal.
        public var sha256: String?
        /// What a symbolic link points to.
        public var target: String?
        /// For a second name of a hard-linked file: the path of the first.
        public var hardLinkOf: String?

        package init(
            path: String, type: String, mode: UInt16? = nil, size: Int64? = nil, sha256: String? = nil,
            target: String? = nil, hardLinkOf: String? = nil
        ) {
            self.path = path
            self.type = type
            self.mode = mode
            self.size = size
            self.sha256 = sha256
            self.target = target
            self.hardLinkOf = hardLinkOf
        }

        /// The entry's kind, or nil for a type this version does not make (a device, a FIFO...).
        package var kind: TreeEntry.Kind? { TreeEntry.Kind(rawValue: type) }
    }

    package init(container: ContainerView, exportedAt: String, entries: [Entry]) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.container = container
        self.exportedAt = exportedAt
        self.entries = entries
    }

    private enum CodingKeys: String, CodingKey { case format, version, container, exportedAt, entries }

    /// The five fields version 1 described a container with.
    private struct ContainerOfVersion1: Decodable {
        var name: String
        var description: String?
        var createdAt: String
        var lastActivatedAt: String?
        var activatedCount: Int
    }

    /// Reads a manifest of any readable version (the reader refuses the others by their number).
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        format = try fields.decode(String.self, forKey: .format)
        version = try fields.decode(Int.self, forKey: .version)
        if version == 1 {
            let old = try fields.decode(ContainerOfVersion1.self, forKey: .container)
            container = ContainerView(
                name: old.name, description: old.description, createdAt: old.createdAt,
                lastActivatedAt: old.lastActivatedAt, activatedCount: old.activatedCount)
        } else {
            container = try fields.decode(ContainerView.self, forKey: .container)
        }
        exportedAt = try fields.decode(String.self, forKey: .exportedAt)
        entries = try fields.decode([Entry].self, forKey: .entries)
    }

    /// The manifest as stored: sorted keys, so the same container gives the same bytes.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
