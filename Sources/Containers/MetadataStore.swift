import Foundation

/// The contents of `state.json`: which container's entries are in the live home, and how many switches
/// brought them there.
struct ActivationState: Codable, Sendable, Equatable {
    var version = 1
    var activeContainer: UUID
    /// Bumped by every switch (records written before generations existed read as 0).
    var generation: UInt64 = 0

    init(activeContainer: UUID, generation: UInt64) {
        self.activeContainer = activeContainer
        self.generation = generation
    }

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        version = try values.decode(Int.self, forKey: .version)
        activeContainer = try values.decode(UUID.self, forKey: .activeContainer)
        generation = try values.decodeIfPresent(UInt64.self, forKey: .generation) ?? 0
    }
}

extension ActivationState {
    /// Reads the bytes of `state.json`; `path` names the file in the error.
    ///
    /// - Throws: ``ContainerError/Code/corruptMetadata`` when `data` is not a state record.
    static func decode(_ data: Data, path: String) throws -> ActivationState {
        do {
            return try JSONDecoder().decode(ActivationState.self, from: data)
        } catch {
            throw ContainerError.corruptMetadata(path: path, reason: "not a state record: \(error)")
        }
    }
}

extension Container {
    /// Reads the bytes of the `container.json` found in the folder of container `folder`; `path` names
    /// the file in the error.
    ///
    /// - Throws: ``ContainerError/Code/corruptMetadata`` when `data` is not a container record or
    ///   describes another container than its folder's.
    static func decodeRecord(_ data: Data, path: String, folder: UUID) throws -> Container {
        let decoded: Container
        do {
            decoded = try JSONDecoder().decode(Container.self, from: data)
        } catch {
            throw ContainerError.corruptMetadata(path: path, reason: "not a container record: \(error)")
        }
        guard decoded.uuid == folder else {
            throw ContainerError.corruptMetadata(
                path: path, reason: "it describes container \(decoded.uuid.uuidString), not the folder's \(folder.uuidString)")
        }
        return decoded
    }
}

/// Reads and writes the bookkeeping files: `state.json` and each container's `container.json`.
///
/// Every write is atomic (temporary file, fsync, rename, fsync of the folder). A missing or unreadable
/// file is reported, never guessed around, except where the answer is certain: a home whose bookkeeping
/// does not exist (or holds no container besides DEFAULT) has DEFAULT active.
struct MetadataStore: Sendable {
    let layout: HomeLayout

    /// When the DEFAULT container was created, if its metadata was never written: unknown, so the epoch.
    static let unknownCreationDate = Date(timeIntervalSince1970: 0)

    // MARK: Active container

    /// The UUID of the active container.
    func activeUUID() throws -> UUID {
        try activation().activeContainer
    }

    /// The active container and the switch generation.
    func activation() throws -> ActivationState {
        guard let data = try FileSystem.read(layout.state) else {
            if try hasOnlyDefault() { return ActivationState(activeContainer: Container.defaultUUID, generation: 0) }
            throw ContainerError.corruptMetadata(
                path: layout.state,
                reason: "it is missing although containers exist, so the active container is unknown; write {\"activeContainer\": \"<UUID of the container whose entries are in the home>\", \"version\": 1}")
        }
        return try ActivationState.decode(data, path: layout.state)
    }

    /// Records `uuid` as the active container, one generation after the recorded one. Recording the
    /// container already recorded does nothing, so replaying a committed journal keeps the generation.
    func recordActive(_ uuid: UUID, staged: () -> Void = {}) throws {
        var previous: UInt64 = 0
        if try FileSystem.exists(layout.state) {
            let current = try activation()
            if current.activeContainer == uuid { return }
            previous = current.generation
        }
        let state = ActivationState(activeContainer: uuid, generation: previous &+ 1)
        try FileSystem.writeAtomically(encode(state), to: layout.state, staged: staged)
    }

    /// Records the next generation with the same active container (after emptying it).
    func bumpGeneration() throws {
        let current = try activation()
        let state = ActivationState(activeContainer: current.activeContainer, generation: current.generation &+ 1)
        try FileSystem.writeAtomically(encode(state), to: layout.state)
    }

        /// Whether the bookkeeping knows no container other than DEFAULT, which is then necessarily active.
    private func hasOnlyDefault() throws -> Bool {
        guard try FileSystem.kind(at: layout.containers) == .directory else { return true }
        return try containerUUIDs().allSatisfy { $0 == Container.defaultUUID }
    }

    // MARK: Containers

    /// The UUIDs of the container folders, in no particular order. Other names are not containers.
    func containerUUIDs() throws -> [UUID] {
        guard try FileSystem.kind(at: layout.containers) == .directory else { return [] }
        return try FileSystem.list(layout.containers).compactMap { entry in
            entry.kind == .directory ? UUID(uuidString: entry.name) : nil
        }
    }

    /// Every container, DEFAULT included even when nothing about it was recorded yet, DEFAULT first and
    /// then by creation date.
    func allContainers() throws -> [Container] {
        var result = try containerUUIDs().compactMap { try container($0) }
        if !result.contains(where: \.isDefault) {
            result.append(.implicitDefault(createdAt: Self.unknownCreationDate))
        }
        return Self.inListOrder(result)
    }

    /// The container with `uuid`, or nil when there is none.
    ///
    /// - Throws: ``ContainerError/Code/corruptMetadata`` naming `container doctor` when its
    ///   record is unusable.
    func container(_ uuid: UUID) throws -> Container? {
        do {
            return try recordedContainer(uuid)
        } catch let error as ContainerError {
            guard case .corruptMetadata(let path, let reason) = error.reason else { throw error }
            throw ContainerError.corruptMetadata(path: path, reason: reason + HomeDoctor.damagedRecordAdvice)
        }
    }

    /// The container with `uuid` as its record says, or nil when there is none.
    func recordedContainer(_ uuid: UUID) throws -> Container? {
        let path = layout.metadata(uuid)
        guard let data = try FileSystem.read(path) else {
            if uuid == Container.defaultUUID { return .implicitDefault(createdAt: Self.unknownCreationDate) }
            // A folder without metadata is damage, not absence: its data must not be silently dropped.
            if try FileSystem.exists(layout.containerFolder(uuid)) {
                throw ContainerError.corruptMetadata(
                    path: path, reason: "the container folder exists but its container.json is missing")
            }
            return nil
        }
        return try Container.decodeRecord(data, path: path, folder: uuid)
    }

    /// Writes the metadata of `container` into its folder (which must exist).
    func write(_ container: Container) throws {
        try FileSystem.writeAtomically(encode(container), to: layout.metadata(container.uuid))
    }

    /// The metadata file's content for `container`.
    func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw ContainerError.io(path: layout.bookkeeping, underlying: error)
        }
    }

    // MARK: Set-up

    /// Creates the bookkeeping of a home that has none yet: DEFAULT's folder and metadata, and a state
    /// that makes DEFAULT active. Run with the lock held. Safe to repeat after a crash part-way.
    func initializeIfNeeded(now: Date) throws {
        if try FileSystem.exists(layout.state) { return }
        guard try hasOnlyDefault() else {
            _ = try activeUUID() // throws the explanation
            return
        }
        try FileSystem.makeDirectory(layout.containers)
        try FileSystem.makeDirectory(layout.containerFolder(Container.defaultUUID))
        try FileSystem.makeDirectory(layout.dataFolder(Container.defaultUUID))
        if try FileSystem.read(layout.metadata(Container.defaultUUID)) == nil {
            try write(.implicitDefault(createdAt: now))
        }
        try FileSystem.syncDirectory(layout.containers)
        try recordActive(Container.defaultUUID)
    }
}
