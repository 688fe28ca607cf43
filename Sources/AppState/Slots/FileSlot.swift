import Foundation
import Preferences
import Synchronization
import Locking

/// The storage of file and secure state: one file of its own in the container, written atomically
/// (temporary file, fsync, rename) on every change, and read once and kept until a container switch.
///
/// All file work of one state is serialised, so the kept value always matches the last file written.
/// Every read and write also holds the ``Preferences/StoreCoordinator``'s cross-process lock and goes
/// where it says: ``update(_:)`` reads the file afresh under that lock, so it is one step against every
/// other writer, in this process or another; and a write made after a switch this process missed lands
/// in the container it read, never in the one live now.
@usableFromInline
final class FileSlot<Value: Codable & Sendable>: StateSlot, FallibleSlot {
    /// The value read or written last, with the bytes of its file (nil when there is no file).
    private struct Loaded {
        let value: Value
        let bytes: Data?
    }

    @usableFromInline let key: String
    @usableFromInline let kind: StateKind
    @usableFromInline let initialValue: Value
    let fileURL: URL
    @usableFromInline let changes: ChangePublisher<Value>
    @usableFromInline let unsaved = UnsavedValue<Value>()
    @usableFromInline let failures: StateFailureReporter
    private let codec: FileStateCodec<Value>
    private let coordinator: any StoreCoordinator
    private let fileLock = Locked(())
    private let loaded = Locked<Loaded?>(nil)

    init(
        key: String, kind: StateKind, initialValue: Value, fileURL: URL, codec: FileStateCodec<Value>,
        coordinator: any StoreCoordinator, applicationObservers: ObserverList<StateKeyChange>,
        failures: StateFailureReporter
    ) {
        self.failures = failures
        self.coordinator = coordinator
        self.key = key
        self.kind = kind
        self.initialValue = initialValue
        self.fileURL = fileURL
        self.codec = codec
        self.changes = ChangePublisher(key: key, kind: kind, applicationObservers: applicationObservers)
    }

    var valueType: any Sendable.Type { Value.self }

    @usableFromInline
    func read() throws -> Value {
        if let value = loaded.withLock({ $0?.value }) { return value }
        return try fileLock.withLock { _ in try loadLocked().value }
    }

    @usableFromInline
    func write(_ newValue: Value) throws {
        let bytes = try codec.encode(newValue, key)
        try fileLock.withLock { _ in
            try coordinated { location in try writeFile(bytes, to: location.url) }
            loaded.withLock { $0 = Loaded(value: newValue, bytes: bytes) }
            unsaved.forget()
        }
        failures.clear(key: key)
        changes.publish(newValue, reason: .changed)
    }

    func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
        var result: Result?
        let newValue = try fileLock.withLock { _ in
            try coordinated { location in
                // A change kept in memory (a write that could not be saved) is what the reads see: start there.
                var value = try unsaved.value ?? readFile(at: location.url).value
                result = try body(&value)
                let bytes = try codec.encode(value, key)
                try writeFile(bytes, to: location.url)
                loaded.withLock { $0 = Loaded(value: value, bytes: bytes) }
                unsaved.forget()
                return value
            }
        }
        failures.clear(key: key)
        changes.publish(newValue, reason: .changed)
        return result!
    }

    func reset() throws {
        try fileLock.withLock { _ in
            try coordinated { location in
                do {
                    try FileManager.default.removeItem(at: location.url)
                } catch CocoaError.fileNoSuchFile {
                    // Already absent: the initial value.
                } catch {
                    if FileManager.default.fileExists(atPath: location.url.path) {
                        throw AppStateError.io(path: location.url.path, operation: "remove", reason: "\(error)")
                    }
                }
            }
            loaded.withLock { $0 = Loaded(value: initialValue, bytes: nil) }
        }
        unsaved.forget()
        failures.clear(key: key)
        changes.publish(initialValue, reason: .changed)
    }

    func readAny() throws -> any Sendable { try unsaved.value ?? read() }

    func writeAny(_ value: any Sendable) throws {
        guard let typed = value as? Value else { throw typeMismatch(value) }
        try write(typed)
    }

    func containerDidSwitch() {
        let forgotUnsaved = unsaved.forget()
        let previous = fileLock.withLock { _ in
            loaded.withLock { loaded in
                defer { loaded = nil }
                return loaded
            }
        }
        guard changes.hasObservers else { return }
        // Observers hear the new container's value when it may differ. One that cannot be read is not
        // announced: the next read throws its error instead.
        guard let current = try? fileLock.withLock({ _ in try loadLocked() }) else { return }
        // Readers that saw a kept unsaved value hear the new container's whatever the files hold.
        if let previous, previous.bytes == current.bytes, !forgotUnsaved { return }
        changes.publish(current.value, reason: .reloaded)
    }

    /// The kept value, or the file's (or the initial value when there is no file), now kept. Call under `fileLock`.
    private func loadLocked() throws -> Loaded {
        if let kept = loaded.withLock({ $0 }) { return kept }
        let fresh = try coordinated(writing: false) { location in try readFile(at: location.url) }
        loaded.withLock { $0 = fresh }
        failures.clear(key: key)
        return fresh
    }

    /// The value of the file at `url` (the initial value when there is none).
    private func readFile(at url: URL) throws -> Loaded {
        let bytes: Data?
        do {
            bytes = try AtomicFile.read(url)
        } catch let error as PreferencesError {
            throw AppStateError.storage(key: key, error)
        }
        let value = try bytes.map { try codec.decode($0, key, url.path) } ?? initialValue
        return Loaded(value: value, bytes: bytes)
    }

    /// Writes the file at `url` atomically. Call under `fileLock`.
    private func writeFile(_ bytes: Data, to url: URL) throws {
        do {
            try AtomicFile.write(bytes, to: url, permissions: codec.permissions)
        } catch let error as PreferencesError {
            throw AppStateError.storage(key: key, error)
        }
    }

    /// Runs `body` under the coordinator's cross-process lock with where this state's file is now.
    private func coordinated<T>(writing: Bool = true, _ body: (StoreLocation) throws -> T) throws -> T {
        do {
            return try coordinator.withLock(forLiveFile: fileURL, writing: writing, body)
        } catch let error as PreferencesError {
            throw AppStateError.storage(key: key, error)
        }
    }
}
