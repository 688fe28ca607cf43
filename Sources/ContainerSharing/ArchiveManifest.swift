package import Containers
import Foundation

/// The table of contents of a container archive, stored in it as `envscript-container.json`: which
/// container it came from and, for each entry, what it is, its permissions, size and SHA-256.
///
/// Entry paths start with `data/` (the container's entries) or `hidden/` (its entries hidden behind
/// excluded ones of the live home). A folder comes before what it holds; a hard link names an earlier
/// file. The manifest is the authority on import: every zip entry must be in it and agree with it.
public struct ArchiveManifest: Codable, Sendable, Equatable {
    /// The manifest's own name inside the archive.
    public static let entryName = "envscript-container.json"
    /// What `format` must say.
    public static let formatName = "envscript-container"
    /// The version this build writes and reads.
    public static let currentVersion = 1

    /// Always ``formatName``: what tells an EnvScript archive from another zip.
    public var format: String
    /// The format version the archive was written in (``currentVersion`` for this build).
    public var version: Int
    /// The container as it was when exported.
    public var container: ExportedContainer
    /// When the archive was written, ISO 8601.
    public var exportedAt: String
    /// Every entry of the container, with its kind, mode, size and SHA-256.
    public var entries: [Entry]

    /// A container's metadata as an archive carries it.
    public struct ExportedContainer: Codable, Sendable, Equatable {
        /// The container's name.
        public var name: String
        /// Its description, nil when it had none.
        public var description: String?
        /// When it was created, ISO 8601.
        public var createdAt: String
        /// When it was last made the active one, ISO 8601; nil if never.
        public var lastActivatedAt: String?
        /// How many times it was made the active one.
        public var activatedCount: Int

        package init(name: String, description: String?, createdAt: String, lastActivatedAt: String?, activatedCount: Int) {
            self.name = name
            self.description = description
            self.createdAt = createdAt
            self.lastActivatedAt = lastActivatedAt
            self.activatedCount = activatedCount
        }
    }

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

    package init(container: ExportedContainer, exportedAt: String, entries: [Entry]) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.container = container
        self.exportedAt = exportedAt
        self.entries = entries
    }

    /// The manifest as stored: sorted keys, so the same container gives the same bytes.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
