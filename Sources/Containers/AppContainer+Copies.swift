import Foundation

extension AppContainer {
    /// Whether `name` at the top of a home belongs to the engine (its bookkeeping folder), so that no
    /// container may hold an entry of that name.
    package static func isReservedName(_ name: String) -> Bool {
        HomeLayout.isReserved(topLevelName: name)
    }

    /// Runs `body` with the place of `container`'s entries, holding the home so that no switch moves
    /// them meanwhile. For the active container the participants flush first (preferences, file
    /// states), so the live home holds what the application last wrote.
    ///
    /// - Parameters:
    ///   - container: the container to read.
    ///   - operation: what the read is for, in the words of a message ("export a container").
    ///   - body: reads the entries; the home is held until it returns.
    /// - Throws: ``ContainerError/Code/notFound``, and whatever `body` throws.
    package func readContents<Result: Sendable>(
        of container: Container, operation: String, _ body: (ContainerContents) throws -> Result
    ) throws -> Result {
        try readContents(of: [container], operation: operation) { try body($0[0]) }
    }

    /// ``readContents(of:operation:_:)-(Container,_,_)`` for several containers at once (to compare them), in the
    /// order given, under one hold of the home.
    package func readContents<Result: Sendable>(
        of containers: [Container], operation: String, _ body: ([ContainerContents]) throws -> Result
    ) throws -> Result {
        try reading(operation) {
            let active = try store.activeUUID()
            if containers.contains(where: { $0.uuid == active }) {
                for participant in observers.participants() { try participant.object.prepareForSwitch() }
            }
            let contents = try containers.map { container in
                let current = try existing(container.uuid)
                let isLive = current.uuid == active
                let hidden = layout.hiddenFolder(current.uuid)
                return ContainerContents(
                    container: current, isLive: isLive,
                    data: isLive ? layout.home : layout.dataFolder(current.uuid),
                    hidden: try FileSystem.kind(at: hidden) == .directory ? hidden : nil,
                    excludeRules: excludeRules)
            }
            return try body(contents)
        }
    }

    /// Creates a container from entries that `fill` writes, for an import: a new UUID, never active.
    ///
    /// `fill` gets a `TreeWriter` rooted in a staging folder that already holds `data`, the folder
    /// of the container's entries; it may make `hidden` for entries hidden behind excluded ones of the
    /// live home. The staging folder becomes the container with one `rename(2)` once everything in it
    /// is durable: a crash or a throw from `fill` leaves no container, and the next change of the home
    /// removes what was staged.
    ///
    /// - Throws: ``ContainerError/Code/invalidName``, ``ContainerError/Code/duplicateName``, and
    ///   whatever `fill` throws.
    @discardableResult
    package func createContainer(
        name: String, description: String? = nil, operation: String = "import a container",
        filling fill: (TreeWriter) throws -> Void
    ) throws -> Container {
        try ContainerName.validate(name)
        let container = try exclusively(operation) { _ in
            try checkNameIsFree(name)
            let container = Container(
                uuid: UUID(), name: name, description: Self.normalized(description), createdAt: Date())
            try install(container, fill: fill)
            return container
        }
        announceListChange(ContainerListChange(kind: .created, uuid: container.uuid))
        return container
    }
}
