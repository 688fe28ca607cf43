package import Containers
package import Foundation

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
