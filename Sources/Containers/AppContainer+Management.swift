public import Foundation

extension AppContainer {
    /// Creates an empty container. It becomes active only when activated.
    ///
    /// - Parameters:
    ///   - name: 1 to 255 characters, not blank, no white space at either end, no control characters,
    ///     not a UUID, unique in this home regardless of case (see `checkNameIsFree(_:renaming:)`).
    ///   - description: free text; nil or empty for none.
    /// - Throws: ``ContainerError/Code/invalidName``, ``ContainerError/Code/duplicateName``,
    ///   ``ContainerError/Code/nameDiffersOnlyByCase``.
    @discardableResult
    public func createNewContainer(name: String, description: String? = nil) throws -> Container {
        try ContainerName.validate(name)
        let container = try exclusively("create a container") { _ in
            try checkNameIsFree(name)
            let container = Container(
                uuid: UUID(), name: name, description: Self.normalized(description), createdAt: Date())
            try install(container) { _ in }
            return container
        }
        announceListChange(ContainerListChange(kind: .created, uuid: container.uuid))
        return container
    }

    /// Deletes a container and its entries. Deleting the active container first activates DEFAULT (a
    /// full switch, which its will-change hooks may cancel).
    ///
    /// - Throws: ``ContainerError/Code/cannotDeleteDefault``, ``ContainerError/Code/notFound``.
    @discardableResult
    public func delete(container: Container) throws -> ContainerChangeReport {
        try deleteContainer(uuid: container.uuid)
    }

    /// Deletes the container with `uuid`; see ``delete(container:)``.
    @discardableResult
    public func deleteContainer(uuid: UUID) throws -> ContainerChangeReport {
        guard uuid != Container.defaultUUID else { throw ContainerError.cannotDeleteDefault }
        let report = try exclusivelyReporting("delete a container") { change in
            _ = try existing(uuid)
            if try store.activeUUID() == uuid {
                try switchLocked(to: Container.defaultUUID, in: &change)
            }
            let trash = try makeTrashFolder()
            // Under the stores lock, so a store writer that read this container never writes into its
            // folder on its way out.
            try HomeLock.holdingStores(layout) {
                try FileSystem.rename(layout.containerFolder(uuid), to: layout.absolute(trash))
                try FileSystem.syncDirectory(layout.containers)
            }
            for participant in observers.participants() { participant.object.containerWasRemoved(uuid) }
            try FileSystem.removeTree(layout.absolute(trash))
        }
        announceListChange(ContainerListChange(kind: .deleted, uuid: uuid))
        return report.report
    }

    /// Deletes the container with the UUID written as `uuid`; see ``delete(container:)``.
    ///
    /// - Throws: ``ContainerError/Code/invalidUUID`` when `uuid` is not a UUID.
    @discardableResult
    package func deleteContainer(uuid: String) throws -> ContainerChangeReport {
        try deleteContainer(uuid: Self.parseUUID(uuid))
    }

    /// Removes every entry of a container, keeping the container. For the active container this empties
    /// the live home, except the bookkeeping and excluded entries, and then the participants reload.
    @discardableResult
    public func clean(container: Container) throws -> ContainerChangeReport {
        try cleanContainer(uuid: container.uuid)
    }

    /// Removes every entry of the container with `uuid`; see ``clean(container:)``.
    @discardableResult
    public func cleanContainer(uuid: UUID) throws -> ContainerChangeReport {
        try exclusivelyReporting("clean a container") { change in
            let cleaned = try existing(uuid)
            let isActive = try store.activeUUID() == uuid
            // Other processes reading the active container reload once it is empty.
            let remote = isActive ? try prepareRemote(.clean, to: cleaned, from: cleaned) : nil
            try abandoningRemote(remote) {
                try cleanLocked(uuid, isActive: isActive, in: &change)
            }
            if let remote { change.completed = CompletedSwitch(to: cleaned, from: cleaned, remote: remote, announces: false) }
        }.report
    }

    private func cleanLocked(_ uuid: UUID, isActive: Bool, in change: inout ChangeInProgress) throws {
        let trash = try makeTrashFolder()
        var steps: [Journal.Step] = []
        if isActive {
            var planner = SwitchPlanner(layout: layout, rules: excludeRules)
            try planner.planMoveOut(into: joinPath(trash, "live"), owner: "the trash")
            steps = planner.steps
        } else {
            steps.append(.move(from: HomeLayout.dataFolder(uuid), to: joinPath(trash, "data")))
            steps.append(.makeDirectory(path: HomeLayout.dataFolder(uuid), mode: 0o700))
        }
        steps.append(.move(from: HomeLayout.hiddenFolder(uuid), to: joinPath(trash, "hidden")))
        try run(Journal(
            operation: "clean container \(uuid.uuidString)", steps: steps,
            activeAfter: nil, metadataAfter: [], removeAfter: [trash]), in: &change)
        if isActive {
            // A new generation, so that every process reading the container notices it was emptied.
            try HomeLock.holdingStores(layout) { try store.bumpGeneration() }
            try noteOwnChange()
            for participant in observers.participants() { participant.object.containerDidSwitch() }
        }
    }

    /// Removes every entry of the container with the UUID written as `uuid`; see ``clean(container:)``.
    ///
    /// - Throws: ``ContainerError/Code/invalidUUID`` when `uuid` is not a UUID.
    @discardableResult
    package func cleanContainer(uuid: String) throws -> ContainerChangeReport {
        try cleanContainer(uuid: Self.parseUUID(uuid))
    }

    /// Creates a container holding a full copy of `container`'s entries: of the live home (after the
    /// participants flushed, without the bookkeeping and excluded entries) when `container` is the
    /// active one, else of its stash. Symbolic links are copied as links.
    ///
    /// - Throws: ``ContainerError/Code/invalidName``, ``ContainerError/Code/duplicateName``,
    ///   ``ContainerError/Code/unsupportedFileType``; nothing is created when the copy fails.
    @discardableResult
    public func clone(container source: Container, name: String, description: String? = nil) throws -> Container {
        try ContainerName.validate(name)
        let copy = try exclusively("clone a container") { _ in
            _ = try existing(source.uuid)
            try checkNameIsFree(name)
            let copy = Container(uuid: UUID(), name: name, description: Self.normalized(description), createdAt: Date())
            let rules = excludeRules
            let sourceIsActive = try store.activeUUID() == source.uuid
            if sourceIsActive {
                for participant in observers.participants() { try participant.object.prepareForSwitch() }
            }
            try install(copy) { writer in
                if sourceIsActive {
                    try TreeCopier.copy(layout.home, into: writer, at: "data") { components in
                        (components.count == 1 && HomeLayout.isReserved(topLevelName: components[0]))
                            || rules.matches(components)
                    }
                } else if try FileSystem.kind(at: layout.dataFolder(source.uuid)) == .directory {
                    try TreeCopier.copy(layout.dataFolder(source.uuid), into: writer, at: "data")
                }
                if try FileSystem.kind(at: layout.hiddenFolder(source.uuid)) == .directory {
                    try writer.makeDirectory("hidden", mode: 0o700)
                    try TreeCopier.copy(layout.hiddenFolder(source.uuid), into: writer, at: "hidden")
                }
            }
            return copy
        }
        announceListChange(ContainerListChange(kind: .created, uuid: copy.uuid))
        return copy
    }

    /// Changes a container's name or description.
    ///
    /// - Parameters:
    ///   - container: the container to change.
    ///   - name: the new name, or nil to keep it. DEFAULT's name cannot change.
    ///   - description: the new description, nil to keep it, or empty to remove it.
    /// - Returns: the updated container.
    @discardableResult
    public func updateInfo(container: Container, name: String? = nil, description: String? = nil) throws -> Container {
        if let name { try ContainerName.validate(name) }
        let updated = try exclusively("update a container") { _ in
            var updated = try existing(container.uuid)
            if let name, name != updated.name {
                guard !updated.isDefault else { throw ContainerError.cannotRenameDefault }
                try checkNameIsFree(name, renaming: updated.uuid)
                updated.name = name
            }
            if let description { updated.description = Self.normalized(description) }
            try store.write(updated)
            return updated
        }
        announceListChange(ContainerListChange(kind: .updated, uuid: updated.uuid))
        return updated
    }

    /// Returns the home to its state before any container existed: activates DEFAULT (a full switch,
    /// which its will-change hooks may cancel), then removes every other container and all bookkeeping
    /// but the record of the application the home belongs to (``recordedApplicationID``).
    /// Excluded entries of the live home stay. A home never switched is left as it is.
    @discardableResult
    public func reset() throws -> ContainerChangeReport {
        guard try FileSystem.exists(layout.bookkeeping) else { return ContainerChangeReport() }
        let report = try exclusivelyReporting("reset the home", initialize: false) { change in
            let removed = try store.containerUUIDs().filter { $0 != Container.defaultUUID }
            if try store.activeUUID() != Container.defaultUUID {
                try switchLocked(to: Container.defaultUUID, in: &change)
            }
            // One rename takes all the bookkeeping out of use; a crash after it only leaves the renamed
            // folder, which the next opening removes.
            try FileSystem.removeTree(layout.removedBookkeeping)
            try FileSystem.rename(layout.bookkeeping, to: layout.removedBookkeeping)
            try FileSystem.syncDirectory(layout.home)
            // The running hosts stay attached: their records (and the locks they hold) come back.
            let removedHosts = layout.removedBookkeeping + "/hosts"
            if try FileSystem.exists(removedHosts) {
                try FileSystem.makePrivateDirectory(layout.bookkeeping)
                try FileSystem.rename(removedHosts, to: layout.hosts)
            }
            try ApplicationRecord.discardRemovedBookkeeping(layout)
            try noteOwnChange()
            for participant in observers.participants() {
                for uuid in removed { participant.object.containerWasRemoved(uuid) }
            }
        }
        announceListChange(ContainerListChange(kind: .reset, uuid: nil))
        return report.report
    }

    // MARK: Helpers

    /// Throws unless `name` is free in this home: ``ContainerError/Code/duplicateName`` when a container
    /// has it, ``ContainerError/Code/nameDiffersOnlyByCase`` when one has it but for case (DEFAULT
    /// included). The check is repeated under the home's lock when the container is made.
    ///
    /// - Parameters:
    ///   - name: the name a container would take.
    ///   - renamed: the container being renamed, which may change the case of its own name.
    package func checkNameIsFree(_ name: String, renaming renamed: UUID? = nil) throws {
        for container in try store.allContainers() where container.uuid != renamed {
            if container.name == name { throw ContainerError.duplicateName(name) }
            if ContainerName.differOnlyByCase(container.name, name) {
                throw ContainerError.nameDiffersOnlyByCase(name, existing: container.name)
            }
        }
    }

    /// Empty descriptions are no description.
    static func normalized(_ description: String?) -> String? {
        guard let description, !description.isEmpty else { return nil }
        return description
    }

    /// A fresh folder in the trash (relative to the home), emptied by the next changing operation if a
    /// crash leaves it.
    private func makeTrashFolder() throws -> String {
        try FileSystem.makeDirectory(layout.trash)
        let folder = HomeLayout.trashFolder(UUID().uuidString)
        try FileSystem.makeDirectory(layout.absolute(folder))
        return folder
    }

    /// Builds a new container's folder in the trash (metadata, `data`, and whatever `fill` writes
    /// through the `TreeWriter` rooted there), makes it durable, then renames it into place, so a
    /// crash never leaves a half-made container.
    func install(_ container: Container, fill: (TreeWriter) throws -> Void) throws {
        let staging = layout.absolute(try makeTrashFolder())
        do {
            let writer = TreeWriter(root: staging)
            try writer.makeDirectory("data", mode: 0o700)
            try fill(writer)
            try writer.finish()
            try FileSystem.writeAtomically(store.encode(container), to: staging + "/container.json")
        } catch {
            // Refused or failed: what was staged goes now, not at the next change of the home.
            try? FileSystem.removeTree(staging)
            try? FileSystem.removeDirectoryIfEmpty(layout.trash)
            throw error
        }
        try FileSystem.rename(staging, to: layout.containerFolder(container.uuid))
        try FileSystem.syncDirectory(layout.containers)
    }
}
