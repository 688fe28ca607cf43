import Foundation
import Preferences

extension Application {
    /// Declares memory state under `key`, or returns the state already declared under it.
    ///
    /// Declaring a key again with the same kind and type gives the same state (the first declaration's
    /// initial value stays in force), so any part of the app may declare what it uses.
    ///
    /// - Throws: ``AppStateError/Code/invalidKey`` for an empty key,
    ///   ``AppStateError/Code/kindMismatch`` or
    ///   ``AppStateError/Code/typeMismatch`` when `key` was declared otherwise.
    public func state<Value: Sendable>(_ key: String, initial: Value) throws -> State<Value> {
        try declareMemory(key, initial: { initial })
    }

    /// Declares stored state under `key` — kept in the container's preferences under the same key — or returns the
    /// state already declared under it.
    ///
    /// - Throws: as ``state(_:initial:)``.
    public func storedState<Value: Codable & Sendable>(_ key: String, initial: Value) throws -> StoredState<Value> {
        try declareStored(key, initial: { initial })
    }

    /// Declares file state under `key` — kept as JSON in `<fileStateFolder>/<key>.json` — or returns the
    /// state already declared under it.
    ///
    /// - Throws: as ``state(_:initial:)``, and ``AppStateError/Code/invalidKey`` for a key too
    ///   long to name a file.
    public func fileState<Value: Codable & Sendable>(_ key: String, initial: Value) throws -> FileState<Value> {
        try declareFile(key, initial: { initial })
    }

    /// Declares secure state under `key` — kept encrypted in `<secureStateFolder>/<key>.sealed` — or
    /// returns the state already declared under it.
    ///
    /// Declaring needs no key; reading or writing loads it (see ``SecureKeySource``).
    ///
    /// - Throws: as ``fileState(_:initial:)``.
    public func secureState<Value: Codable & Sendable>(_ key: String, initial: Value) throws -> SecureState<Value> {
        try declareSecure(key, initial: { initial })
    }

    /// Declares a secure string under `key`, nil until set — a token, a password.
    ///
    /// - Throws: as ``fileState(_:initial:)``.
    public func secureState(_ key: String) throws -> SecureState<String?> {
        try secureState(key, initial: nil)
    }

    // The declarations proper: `initial` is evaluated only when the key is declared for the first time.

    func declareMemory<Value: Sendable>(_ key: String, initial: () -> Value) throws -> State<Value> {
        let slot = try declare(key, kind: .memory, as: MemorySlot<Value>.self, valueType: Value.self) {
            MemorySlot(key: key, initialValue: initial(), applicationObservers: keyObservers)
        }
        return State(slot: slot)
    }

    func declareStored<Value: Codable & Sendable>(_ key: String, initial: () -> Value) throws -> StoredState<Value> {
        let slot = try declare(key, kind: .stored, as: StoredSlot<Value>.self, valueType: Value.self) {
            StoredSlot(
                key: key, initialValue: initial(), store: preferences, applicationObservers: keyObservers,
                failures: failures)
        }
        return StoredState(slot: slot)
    }

    func declareFile<Value: Codable & Sendable>(_ key: String, initial: () -> Value) throws -> FileState<Value> {
        FileState(slot: try declareFileSlot(key, kind: .file, initial: initial))
    }

    func declareSecure<Value: Codable & Sendable>(_ key: String, initial: () -> Value) throws -> SecureState<Value> {
        SecureState(slot: try declareFileSlot(key, kind: .secure, initial: initial))
    }

    /// The slot of file or secure state `key`: a file of its own, JSON or sealed.
    private func declareFileSlot<Value: Codable & Sendable>(
        _ key: String, kind: StateKind, initial: () -> Value
    ) throws -> FileSlot<Value> {
        try declare(key, kind: kind, as: FileSlot<Value>.self, valueType: Value.self) {
            let isSecure = kind == .secure
            return FileSlot(
                key: key, kind: kind, initialValue: initial(),
                fileURL: try fileURL(
                    forKey: key, in: isSecure ? secureStateFolder : fileStateFolder, extension: isSecure ? "sealed" : "json"),
                codec: isSecure ? .sealed(keys: secureKeys) : .json, coordinator: preferences.coordinator,
                applicationObservers: keyObservers, failures: failures)
        }
    }

    /// Finds or makes the slot of `key`, checking that an existing one has the requested kind and type.
    ///
    /// A new slot is made outside the registry's lock — its initial value may come from other state —
    /// and of two threads declaring the same key at once, the first to register wins.
    private func declare<Slot: StateSlot, Value>(
        _ key: String, kind: StateKind, as slotType: Slot.Type, valueType: Value.Type, make: () throws -> Slot
    ) throws -> Slot {
        guard !key.isEmpty else { throw AppStateError.invalidKey(key: key, reason: "a key must not be empty") }
        if let existing = registry.withLock({ $0.slots[key] }) {
            return try checked(existing, key: key, kind: kind, as: slotType, valueType: valueType)
        }
        let made = try make()
        let registered = registry.withLock { registry -> any StateSlot in
            if let existing = registry.slots[key] { return existing }
            registry.slots[key] = made
            registry.keys.append(key)
            return made
        }
        return try checked(registered, key: key, kind: kind, as: slotType, valueType: valueType)
    }

    /// `slot` as the requested kind and type of slot.
    private func checked<Slot: StateSlot, Value>(
        _ slot: any StateSlot, key: String, kind: StateKind, as slotType: Slot.Type, valueType: Value.Type
    ) throws -> Slot {
        guard slot.kind == kind else {
            throw AppStateError.kindMismatch(key: key, declared: slot.kind, requested: kind)
        }
        guard let typed = slot as? Slot else {
            throw AppStateError.typeMismatch(key: key, declared: slot.valueTypeName, requested: String(reflecting: Value.self))
        }
        return typed
    }

    /// The file of `key` in `folder`: the key with unsafe characters percent-encoded, so no two keys share
    /// a file and no key leaves the folder.
    private func fileURL(forKey key: String, in folder: URL, extension fileExtension: String) throws -> URL {
        do {
            return try FileStore(folderURL: folder).url(forKey: "\(key).\(fileExtension)")
        } catch let error as PreferencesError {
            guard case .invalidKey(_, let reason) = error.reason else { throw error }
            throw AppStateError.invalidKey(key: key, reason: reason)
        }
    }
}
