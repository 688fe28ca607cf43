import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much room a container's entries take on disk.
public struct ContainerDiskUsage: Sendable, Equatable, Codable {
    /// The bytes allocated to its files, folders and links, as `du` counts them (blocks, not lengths);
    /// a file with several hard links inside the container counts once.
    public var bytes: Int64
    /// How many files, folders and links it holds.
    public var entries: Int

    /// A measure.
    package init(bytes: Int64, entries: Int) {
        self.bytes = bytes
        self.entries = entries
    }
}

extension AppContainer {
    /// Measures `container` on disk: its entries in the live home (without the bookkeeping and the
    /// excluded entries) when it is active, else its stash, and in both cases the entries kept aside
    /// for it. Taken with the home locked, so that no switch moves entries while they are counted.
    ///
    /// - Throws: ``ContainerError/Code/notFound``, ``ContainerError/Code/io``.
    public func diskUsage(of container: Container) throws -> ContainerDiskUsage {
        try reading("measure a container") {
            _ = try existing(container.uuid)
            var measure = DiskMeasure()
            if try store.activeUUID() == container.uuid {
                let rules = excludeRules
                try measure.addContents(of: layout.home, components: []) { components in
                    (components.count == 1 && HomeLayout.isReserved(topLevelName: components[0]))
                        || rules.matches(components)
                }
            } else {
                try measure.addContents(of: layout.dataFolder(container.uuid), components: []) { _ in false }
            }
            try measure.addContents(of: layout.hiddenFolder(container.uuid), components: []) { _ in false }
            return ContainerDiskUsage(bytes: measure.bytes, entries: measure.entries)
        }
    }
}

/// Adds up the blocks of a tree, without following links and counting each hard-linked file once.
private struct DiskMeasure {
    private(set) var bytes: Int64 = 0
    private(set) var entries = 0
    private var seen: Set<FileIdentity> = []

    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// Adds what is inside `folder` (not the folder itself); nothing when it does not exist.
    /// `skips` is asked for each entry's path components below the starting folder.
    ///
    /// The starting folder may be a link to a folder (a home that is one); links inside it are entries.
    mutating func addContents(of folder: String, components: [String], skips: ([String]) -> Bool) throws {
        let status = components.isEmpty ? try FileSystem.statusFollowingLink(at: folder) : try FileSystem.status(at: folder)
        guard let status, FileSystem.kind(ofMode: status.st_mode) == .directory else { return }
        for entry in try FileSystem.list(folder) {
            let path = folder + "/" + entry.name
            let entryComponents = components + [entry.name]
            if skips(entryComponents) { continue }
            // An entry removed since the listing takes no room.
            guard let status = try FileSystem.status(at: path) else { continue }
            entries += 1
            let identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            if status.st_nlink <= 1 || FileSystem.kind(ofMode: status.st_mode) == .directory || seen.insert(identity).inserted {
                bytes += Int64(status.st_blocks) * 512
            }
            if FileSystem.kind(ofMode: status.st_mode) == .directory {
                try addContents(of: path, components: entryComponents, skips: skips)
            }
        }
    }
}
