package import Containers
package import Foundation

/// A container as every front door shows it — the Lua table, the control API, `envscript container
/// info --json` and its table — encoded by one encoder for each: `uuid, name, description, is_default,
/// is_active, created_at, last_activated_at, activated_count`, dates as ISO 8601 text; `description` and
/// `last_activated_at` are absent when there is none. `disk_usage` (bytes and entries) is there only when
/// one container is asked for (`envscript container info`, `GET /v1/containers/{id}`): measuring walks
/// its tree.
package struct ContainerView: Codable, Sendable, Equatable {
    package let uuid: String
    package let name: String
    package let description: String?
    package let isDefault: Bool
    package let isActive: Bool
    package let createdAt: String
    package let lastActivatedAt: String?
    package let activatedCount: Int
    package var diskUsage: ContainerDiskUsage?

    package init(_ container: Container, activeUUID: UUID?) {
        uuid = container.uuid.uuidString
        name = container.name
        description = container.description
        isDefault = container.isDefault
        isActive = container.uuid == activeUUID
        createdAt = container.createdAt.formatted(.iso8601)
        lastActivatedAt = container.lastActivatedAt?.formatted(.iso8601)
        activatedCount = container.activatedCount
    }

    package enum CodingKeys: String, CodingKey {
        case uuid, name, description
        case isDefault = "is_default"
        case isActive = "is_active"
        case createdAt = "created_at"
        case lastActivatedAt = "last_activated_at"
        case activatedCount = "activated_count"
        case diskUsage = "disk_usage"
    }
}

/// `{"containers": [...], "damaged": [...]}`: every container of the home, DEFAULT first, then by
/// creation date; the containers whose record cannot be used are set apart in `damaged` rather than
/// failing the list. The control API and `envscript container list --json` show it; `container.list()`
/// returns its two arrays.
package struct ContainerListView: Codable, Sendable {
    package let containers: [ContainerView]
    package let damaged: [DamagedContainerView]

    package init(_ listing: ContainerListing) {
        containers = listing.containers.map { ContainerView($0, activeUUID: listing.activeUUID) }
        damaged = listing.damaged.map { DamagedContainerView($0, activeUUID: listing.activeUUID) }
    }
}

/// A container whose `container.json` cannot be used, as every front door shows it: `uuid, is_default,
/// is_active, record_path, problem`. Its data is still in its folder;
/// `envscript container doctor` tells more.
package struct DamagedContainerView: Codable, Sendable, Equatable {
    package let uuid: String
    package let isDefault: Bool
    package let isActive: Bool
    package let recordPath: String
    package let problem: String

    package init(_ damaged: DamagedContainer, activeUUID: UUID) {
        uuid = damaged.uuid.uuidString
        isDefault = damaged.uuid == Container.defaultUUID
        isActive = damaged.uuid == activeUUID
        recordPath = damaged.path
        problem = damaged.reason
    }

    package enum CodingKeys: String, CodingKey {
        case uuid, problem
        case isDefault = "is_default"
        case isActive = "is_active"
        case recordPath = "record_path"
    }
}
