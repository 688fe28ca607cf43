#if Sharing
package import ContainerSharing
#endif
package import Containers
package import Foundation

/// The container operations of a host, written once for every front door: the Lua module `container`,
/// the control API's `/v1/containers` routes and `envscript container` only translate their arguments
/// into these calls and render what they return.
///
/// A container is named by its name or UUID (``resolve(_:)``). Every answer is a value made for the
/// caller — a ``ContainerView``, a list, or a ``ContainerChange`` for the operations that move data — so
/// two threads sharing a host each learn about their own operation.
package struct ContainerOperations: Sendable {
    package let containers: AppContainer

    package init(_ containers: AppContainer) {
        self.containers = containers
    }

    /// The container named `id` (a name or a UUID).
    ///
    /// - Throws: `ContainerError/Code/notFound`.
    package func resolve(_ id: String) throws -> Container {
        try containers.resolve(id)
    }

    /// Every container of the home, the damaged ones set apart.
    package func list() throws -> ContainerListView {
        ContainerListView(try containers.containerListing)
    }

    /// The active container.
    package func active() throws -> ContainerView {
        let active = try containers.activeContainer
        return ContainerView(active, activeUUID: active.uuid)
    }

    /// The container named `id`, or nil when the home has none of that name or UUID.
    package func get(_ id: String) throws -> ContainerView? {
        do {
            return try view(try resolve(id))
        } catch let error as ContainerError where error.code == .notFound {
            return nil
        }
    }

    /// The container named `id` (the active one when nil) with its size on disk, which walks its tree.
    package func info(_ id: String?) throws -> ContainerView {
        let shown = try id.map(resolve) ?? containers.activeContainer
        var info = try view(shown)
        info.diskUsage = try containers.diskUsage(of: shown)
        return info
    }

    /// Creates an empty container (it does not become active).
    package func create(name: String, description: String?) throws -> ContainerView {
        try view(try containers.createNewContainer(name: name, description: description))
    }

    /// Switches the home to the container named `id`, running every hook; `interruption` (a Ctrl-C
    /// handler's) stops and undoes the switch when it asks before the commit point.
    package func activate(_ id: String, interruption: ChangeInterruption? = nil) throws -> ContainerChange {
        try activate(try resolve(id), interruption: interruption)
    }

    /// Switches the home to `container`, already resolved (the command line names it in its messages).
    package func activate(_ container: Container, interruption: ChangeInterruption? = nil) throws -> ContainerChange {
        let report = try containers.activate(container: container, interruption: interruption)
        return ContainerChange(container: try active(), report: report)
    }

    /// Copies the container named `id` into a new one.
    package func clone(_ id: String, name: String, description: String?) throws -> ContainerView {
        try view(try containers.clone(container: try resolve(id), name: name, description: description))
    }

    /// Renames the container named `id` or changes its description (nil keeps a field; an empty
    /// description removes it).
    package func update(_ id: String, name: String?, description: String?) throws -> ContainerView {
        try view(try containers.updateInfo(container: try resolve(id), name: name, description: description))
    }

    /// Empties the container named `id`.
    package func clean(_ id: String) throws -> ContainerChange {
        let target = try resolve(id)
        let report = try containers.clean(container: target)
        return ContainerChange(container: try view(try containers.container(uuid: target.uuid) ?? target), report: report)
    }

    /// Deletes the container named `id` (the active one switches to DEFAULT first).
    package func delete(_ id: String) throws -> ContainerChange {
        let target = try resolve(id)
        let before = try view(target)
        return ContainerChange(container: before, report: try containers.delete(container: target))
    }

    /// Goes back to DEFAULT and removes every other container.
    package func reset() throws -> ContainerChange {
        let report = try containers.reset()
        return ContainerChange(container: try active(), report: report)
    }

    #if Sharing
    /// Writes the container named `id` to the archive `destination`.
    package func export(_ id: String, to destination: URL) throws -> ArchiveManifest {
        try containers.export(container: try resolve(id), to: destination)
    }

    /// Makes a new container of the archive `archive`, named `name` or as the archive says.
    package func `import`(from archive: URL, name: String?, limits: ArchiveLimits = .standard) throws -> ContainerView {
        try view(try containers.importContainer(from: archive, name: name, limits: limits))
    }

    /// What differs between two containers or archives.
    package func diff(_ first: DiffOperand, _ second: DiffOperand) throws -> ContainerDiff {
        try containers.diff(first, second)
    }
    #endif

    /// `container` as it is now, the home's active container read afresh.
    private func view(_ container: Container) throws -> ContainerView {
        ContainerView(container, activeUUID: try containers.activeContainer.uuid)
    }
}
