public import Foundation

/// A container whose folder exists but whose `container.json` cannot be used (missing, unreadable, not a
/// container record, or the record of another container). Its data is still in its folder.
public struct DamagedContainer: Sendable, Equatable, Hashable {
    /// The UUID its folder is named after.
    public let uuid: UUID
    /// Its `container.json`.
    public let path: String
    /// What is wrong with the record, in words.
    public let reason: String
}

/// Every container of a home, the usable ones and the damaged ones, with the active container's UUID.
public struct ContainerListing: Sendable, Equatable {
    /// The containers whose records could be read: DEFAULT first, then by creation date.
    public let containers: [Container]
    /// The containers whose records could not be read, by UUID.
    public let damaged: [DamagedContainer]
    /// The container whose entries are in the live home (which may be a damaged one).
    public let activeUUID: UUID
}

extension MetadataStore {
    /// Every container, setting apart those whose records cannot be used instead of failing on them.
    ///
    /// - Throws: when `state.json` or the containers folder cannot be read.
    func listing() throws -> ContainerListing {
        let (readable, damaged) = try partitionedContainers()
        return ContainerListing(containers: readable, damaged: damaged, activeUUID: try activeUUID())
    }

    /// The containers whose records can be read (DEFAULT included even when nothing about it was recorded
    /// yet, unless its record is damaged), in list order, and the damaged ones by UUID.
    func partitionedContainers() throws -> (readable: [Container], damaged: [DamagedContainer]) {
        var readable: [Container] = []
        var damaged: [DamagedContainer] = []
        for uuid in try containerUUIDs() {
            do {
                if let container = try recordedContainer(uuid) { readable.append(container) }
            } catch let error as ContainerError {
                if case .corruptMetadata(let path, let reason) = error.reason {
                    damaged.append(DamagedContainer(uuid: uuid, path: path, reason: reason))
                } else {
                    damaged.append(DamagedContainer(uuid: uuid, path: layout.metadata(uuid), reason: "\(error)"))
                }
            }
        }
        if !readable.contains(where: \.isDefault), !damaged.contains(where: { $0.uuid == Container.defaultUUID }) {
            readable.append(.implicitDefault(createdAt: Self.unknownCreationDate))
        }
        return (Self.inListOrder(readable), damaged.sorted { $0.uuid.uuidString < $1.uuid.uuidString })
    }

    /// DEFAULT first, then by creation date, name and UUID.
    static func inListOrder(_ containers: [Container]) -> [Container] {
        containers.sorted { a, b in
            if a.isDefault != b.isDefault { return a.isDefault }
            if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
            if a.name != b.name { return a.name < b.name }
            return a.uuid.uuidString < b.uuid.uuidString
        }
    }
}

extension AppContainer {
    /// Every container of the home, with those whose records cannot be used set apart instead of failing
    /// the whole list, so one damaged `container.json` does not hide the others. Takes no lock.
    public var containerListing: ContainerListing {
        get throws { try store.listing() }
    }
}
