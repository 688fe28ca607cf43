#if Control
package import Containers
package import Foundation

/// A container as the control API and `envscript container info --json` show it: the fields and names
/// of the Lua table (`uuid, name, description, is_default, is_active, created_at, last_activated_at,
/// activated_count`), dates as ISO 8601 text; `description` and `last_activated_at` are absent when there
/// is none. `disk_usage` (bytes and entries) is there only when one container is asked for: measuring
/// walks its tree.
package struct ContainerPayload: Codable, Sendable, Equatable {
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

    /// `container` as it is now, with the home's active container read afresh.
    init(_ container: Container, in containers: AppContainer) throws {
        self.init(container, activeUUID: try containers.activeContainer.uuid)
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
/// failing the list. The control API and `envscript container list --json` show it.
package struct ContainerListPayload: Codable, Sendable {
    package let containers: [ContainerPayload]
    package let damaged: [DamagedContainerPayload]

    init(_ containers: AppContainer) throws {
        self.init(try containers.containerListing)
    }

    package init(_ listing: ContainerListing) {
        containers = listing.containers.map { ContainerPayload($0, activeUUID: listing.activeUUID) }
        damaged = listing.damaged.map { DamagedContainerPayload($0, activeUUID: listing.activeUUID) }
    }
}

/// A container whose `container.json` cannot be used, as the control API shows it: the fields of the
/// Lua table (`uuid, is_default, is_active, record_path, problem`). Its data is still in its folder;
/// `envscript container doctor` tells more.
package struct DamagedContainerPayload: Codable, Sendable, Equatable {
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

/// `{"ok": true}`: the answer of an operation with nothing else to report.
struct OKPayload: Codable, Sendable {
    var ok = true
}
#endif
