import Containers
import Foundation

/// One element of `envscript container list --json`: a container as ``ContainerRecord`` prints it, or
/// one whose record is damaged.
enum ListedContainer: Encodable {
    case readable(ContainerRecord)
    case damaged(DamagedContainerRecord)

    /// Every container of `listing`, the readable ones first.
    static func all(_ listing: ContainerListing) -> [ListedContainer] {
        listing.containers.map { .readable(ContainerRecord($0, activeUUID: listing.activeUUID)) }
            + listing.damaged.map { .damaged(DamagedContainerRecord($0, activeUUID: listing.activeUUID)) }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .readable(let record): try record.encode(to: encoder)
        case .damaged(let record): try record.encode(to: encoder)
        }
    }
}

/// A container whose `container.json` cannot be used, as `envscript container list --json` prints it.
struct DamagedContainerRecord: Encodable {
    var uuid: String
    var isDefault: Bool
    var isActive: Bool
    var isDamaged = true
    /// Its unusable record.
    var recordPath: String
    /// What is wrong with the record.
    var problem: String

    init(_ damaged: DamagedContainer, activeUUID: UUID) {
        uuid = damaged.uuid.uuidString
        isDefault = damaged.uuid == Container.defaultUUID
        isActive = damaged.uuid == activeUUID
        recordPath = damaged.path
        problem = damaged.reason
    }
}
