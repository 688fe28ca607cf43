package import Foundation

/// A container as every front door shows it — the Lua table, the control API, `envscript container
/// info --json` and its table, and the manifest of an archive — encoded by one encoder for each: `uuid,
/// name, description, is_default, is_active, created_at, last_activated_at, activated_count`, dates as
/// ISO 8601 text; `description` and `last_activated_at` are absent when there is none. `disk_usage`
/// (bytes and entries) is there only when one container is asked for (`envscript container info`, `GET
/// /v1/containers/{id}`): measuring walks its tree.
public struct ContainerView: Codable, Sendable, Equatable {
    /// The container's UUID, upper-case text; empty in an archive of format 1, which did not record it.
    public let uuid: String
    /// Its name.
    public let name: String
    /// Its description, nil when it has none.
    public let description: String?
    /// Whether it is the DEFAULT container.
    public let isDefault: Bool
    /// Whether it is (for an archive: was, when exported) the active container.
    public let isActive: Bool
    /// When it was created, ISO 8601.
    public let createdAt: String
    /// When it was last made the active one, ISO 8601; nil if never.
    public let lastActivatedAt: String?
    /// How many times it was made the active one.
    public let activatedCount: Int
    /// What it takes on disk, when it was measured.
    public var diskUsage: ContainerDiskUsage?

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

    /// A container as an archive of format 1 described it: no UUID, not the DEFAULT one, not active.
    package init(name: String, description: String?, createdAt: String, lastActivatedAt: String?, activatedCount: Int) {
        uuid = ""
        self.name = name
        self.description = description
        isDefault = false
        isActive = false
        self.createdAt = createdAt
        self.lastActivatedAt = lastActivatedAt
        self.activatedCount = activatedCount
    }

    private enum CodingKeys: String, CodingKey {
        case uuid, name, description
        case isDefault = "is_default"
        case isActive = "is_active"
        case createdAt = "created_at"
        case lastActivatedAt = "last_activated_at"
        case activatedCount = "activated_count"
        case diskUsage = "disk_usage"
    }
}
