public import Foundation

extension AppContainer {
    /// Every container of the home: DEFAULT first, then by creation date.
    ///
    /// Reading takes no lock; during another process's switch it may show the state before it.
    ///
    /// - Throws: ``ContainerError/Code/corruptMetadata`` when a container's record is unusable.
    public var containers: [Container] {
        get throws { try store.allContainers() }
    }

    /// The container whose entries are in the live home.
    public var activeContainer: Container {
        get throws {
            let uuid = try store.activeUUID()
            guard let container = try store.container(uuid) else {
                throw ContainerError.corruptMetadata(
                    path: layout.state, reason: "it names container \(uuid.uuidString), which does not exist")
            }
            return container
        }
    }

    /// The container named `name` (exactly), or nil. Containers whose records are damaged have no
    /// name to match, so they do not stop the others from being found (see `containerListing`).
    public func container(named name: String) throws -> Container? {
        try store.partitionedContainers().readable.first { $0.name == name }
    }

    /// The container with `uuid`, or nil.
    public func container(uuid: UUID) throws -> Container? {
        try store.container(uuid)
    }

    /// The container with the UUID written as `uuid`, or nil.
    ///
    /// - Throws: ``ContainerError/Code/invalidUUID`` when `uuid` is not a UUID.
    package func container(uuid: String) throws -> Container? {
        try container(uuid: Self.parseUUID(uuid))
    }

    /// The container with this UUID, or else with this name.
    ///
    /// - Throws: ``ContainerError/Code/notFound`` when there is neither.
    public func resolve(_ nameOrUUID: String) throws -> Container {
        if let uuid = UUID(uuidString: nameOrUUID), let found = try store.container(uuid) {
            return found
        }
        if let found = try container(named: nameOrUUID) { return found }
        throw ContainerError.notFound(nameOrUUID)
    }

    /// `text` as a UUID, or ``ContainerError/Code/invalidUUID``.
    static func parseUUID(_ text: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
            throw ContainerError.invalidUUID(text)
        }
        return uuid
    }

    /// The container with `uuid`, read under the lock, or ``ContainerError/Code/notFound``.
    func existing(_ uuid: UUID) throws -> Container {
        guard let found = try store.container(uuid) else { throw ContainerError.notFound(uuid.uuidString) }
        return found
    }
}
