package import Foundation
import Synchronization
import Locking

/// The key-value store of a container — its `UserDefaults` — kept as a property list at
/// `<home>/Library/Preferences/<appID>.plist`.
///
/// The file is read once, on first use, and cached. Changes are made in the cache and remembered key by
/// key; ``flush()`` writes them (atomically: temporary file, fsync, rename, fsync of the folder), or
/// every change is written at once when the store is created with `synchronous: true`. The home is
/// always the live app home: containers are swapped underneath it by renames, so after a switch the
/// runtime calls ``flush()`` before and ``reload()`` after, and the same store then serves the new
/// container.
///
/// Several processes may use one file at once (an application and the command line, two instances of
/// an app). A flush is a per-key merge under the ``StoreCoordinator``'s cross-process lock: it reads the
/// file as it is now, applies only the keys this store changed since its last flush, writes the result
/// and adopts what other processes wrote. So writers of different keys all survive, and writers of one
/// key end with the value of whoever flushed last — never a mix. A key whose dictionary holds
/// independent entries (tweak overrides by feature and variable) can be merged entry by entry, see
/// `mergeEntries(ofKey:depth:)`. ``synchronize()`` adopts other processes' changes without waiting
/// for a change of one's own.
///
/// All methods are thread-safe. Observers are called after the change, outside the store's locks, on the
/// thread that made it, so they may read or write the store.
package final class PreferencesStore: Sendable {
    /// The property list this store reads and writes.
    package let fileURL: URL
    /// Whether every change is written to disk before the changing call returns.
    package let isSynchronous: Bool

    private struct State {
        /// nil until loaded, and again after a failed reload, so nothing is served from a stale file.
        /// Every change of it advances ``generation``, under the same lock.
        var values: [String: PreferenceValue]?
        /// What changed since the last flush, key by key.
        var pending = PendingChanges()
        /// Keys whose dictionaries merge entry by entry, with how many levels deep: a few keys, looked
        /// through in order, which costs a write less than hashing its key once more.
        var entryDepths: [(key: String, depth: Int)] = []

        /// How many levels deep the dictionary under `key` merges entry by entry; 0 for a whole value.
        func entryDepth(ofKey key: String) -> Int {
            for entry in entryDepths where entry.key == key { return entry.depth }
            return 0
        }
    }

    private let state = Locked(State())
    /// Advanced under `state`'s lock whenever `values` change; read without it.
    private let generationCounter = Atomic<UInt64>(0)
    /// Serialises file reads and writes so two flushes never land out of order and a reload never
    /// interleaves with a flush.
    private let fileLock = Locked(())
    let observers = StoreObservers()
    /// Takes the cross-process lock around every read and write of the file, and says where it is.
    package let coordinator: any StoreCoordinator

    /// The file of `appID`'s preferences under `home`: `<home>/Library/Preferences/<appID>.plist`.
    package static func fileURL(home: URL, appID: String) -> URL {
        home.appendingPathComponent("Library/Preferences", isDirectory: true)
            .appendingPathComponent("\(appID).plist", isDirectory: false)
    }

    /// Creates the store of `appID` in the live app home `home`. Nothing is read until first use.
    ///
    /// - Parameters:
    ///   - home: the live app home, whose `Library/Preferences` holds the file.
    ///   - appID: the application's identifier, which names the file (`<appID>.plist`).
    ///   - synchronous: write every change to disk before returning (slower, never loses a change to a
    ///     crash); otherwise changes wait for ``flush()``.
    ///   - coordinator: the cross-process lock and fencing of the file; by default a lock on its folder.
    package convenience init(
        home: URL, appID: String, synchronous: Bool = false, coordinator: any StoreCoordinator = FolderLockCoordinator()
    ) {
        self.init(fileURL: Self.fileURL(home: home, appID: appID), synchronous: synchronous, coordinator: coordinator)
    }

    /// Creates a store over an explicit property-list file. Nothing is read until first use.
    package init(fileURL: URL, synchronous: Bool = false, coordinator: any StoreCoordinator = FolderLockCoordinator()) {
        self.fileURL = fileURL
        self.isSynchronous = synchronous
        self.coordinator = coordinator
    }

    // MARK: Reading

    /// The value stored under `key`, or nil.
    ///
    /// - Throws: ``PreferencesError/Code/corruptFile`` if the file cannot be read as a property list.
    package func value(forKey key: String) throws -> PreferenceValue? {
        try valueAndGeneration(forKey: key).value
    }

    /// A number that changes whenever any value of the store may have changed — a set, a removal, a
    /// reload, other processes' changes adopted by a flush — and only then. A value read together with
    /// `valueAndGeneration(forKey:)` is still the store's value while this number stays the same, so a
    /// reader may keep what it made of it (a decoded value) and check only this number, one atomic load.
    package var generation: UInt64 { generationCounter.load(ordering: .acquiring) }

    /// The value stored under `key` (or nil), and the ``generation`` it belongs to, read in one step.
    ///
    /// - Throws: as ``value(forKey:)``.
    package func valueAndGeneration(forKey key: String) throws -> (value: PreferenceValue?, generation: UInt64) {
        while true {
            let found = state.withLock { state -> (value: PreferenceValue?, generation: UInt64)? in
                guard state.values != nil else { return nil }
                return (state.values![key], generationCounter.load(ordering: .relaxed))
            }
            if let found { return found }
            try ensureLoaded()
        }
    }

    /// All keys and values.
    package func dictionaryRepresentation() throws -> [String: PreferenceValue] {
        try loadedValues()
    }

    /// The Boolean under `key`; nil if absent or not a Boolean (an integer is never read as a Boolean).
    package func bool(forKey key: String) throws -> Bool? { try value(forKey: key)?.boolValue }
    /// The integer under `key`; nil if absent or not an integer.
    package func int(forKey key: String) throws -> Int? { try value(forKey: key)?.intValue }
    /// The number under `key`; nil if absent or not a number (integers widen to `Double`).
    package func double(forKey key: String) throws -> Double? { try value(forKey: key)?.doubleValue }
    /// The string under `key`; nil if absent or not a string.
    package func string(forKey key: String) throws -> String? { try value(forKey: key)?.stringValue }
    /// The bytes under `key`; nil if absent or not data.
    package func data(forKey key: String) throws -> Data? { try value(forKey: key)?.dataValue }

    /// Decodes the value under `key` as `T` with Foundation's property list decoder; nil if absent.
    ///
    /// - Throws: ``PreferencesError/Code/decodingFailed`` when the stored value has another shape.
    package func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let stored = try value(forKey: key) else { return nil }
        do {
            return try stored.decode(T.self)
        } catch {
            throw PreferencesError.decodingFailed(key: key, path: fileURL.path, reason: "\(error)")
        }
    }

    // MARK: Writing

    /// Stores `value` under `key`; nil removes the key.
    ///
    /// The work done is that of one key, however many the store holds: the cache changes in place and
    /// the key is remembered for the next flush (or written at once by a synchronous store).
    package func set(_ value: PreferenceValue?, forKey key: String) throws {
        try set(value, forKey: key, keyObservers: nil)
    }

    /// Stores `value` under `key`, telling the observers of `keyObservers` when the caller holds the
    /// key's list, else those found by name.
    func set(_ value: PreferenceValue?, forKey key: String, keyObservers: ObserverList<PreferenceChange>?) throws {
        var previous: PreferenceValue?
        while true {
            // Until the first load (or after a reload dropped the cache) there is nothing to change:
            // load, then try again.
            let found = state.withLock { state -> PreferenceValue?? in
                guard state.values != nil else { return nil }
                // One look-up of the key: the old value comes back from the write itself.
                let old = if let value { state.values!.updateValue(value, forKey: key) }
                          else { state.values!.removeValue(forKey: key) }
                if old != value {
                    generationCounter.add(1, ordering: .releasing)
                    state.pending.record(key: key, from: old, to: value, depth: state.entryDepth(ofKey: key))
                }
                return .some(old)
            }
            if let found {
                previous = found
                break
            }
            try ensureLoaded()
        }
        guard previous != value else { return }
        if isSynchronous { try flush() }
        notifyChange(ofKey: key, from: previous, to: value, reason: .set, keyObservers: keyObservers)
    }

    /// Removes `key`.
    package func removeValue(forKey key: String) throws {
        try set(nil, forKey: key)
    }

    /// Encodes `value` with Foundation's property list encoder and stores it under `key`.
    ///
    /// - Throws: ``PreferencesError/Code/unsupportedValue`` if it has no property-list form.
    package func set<T: Encodable>(encoding value: T, forKey key: String) throws {
        let encoded: PreferenceValue
        do {
            encoded = try PreferenceValue(encoding: value)
        } catch {
            throw PreferencesError.unsupportedValue(key: key, reason: "\(error)")
        }
        try set(encoded, forKey: key)
    }

    /// Changes several keys as one step: no other change in this process is interleaved, and observers
    /// hear of each changed key afterwards. The keys whose values differ afterwards are what the next
    /// flush writes; other processes' changes to other keys survive it.
    ///
    /// `body` runs under the store's lock: it must not call back into this store.
    @discardableResult
    package func update<R: Sendable>(_ body: (inout [String: PreferenceValue]) throws -> R) throws -> R {
        var before: [String: PreferenceValue] = [:]
        var after: [String: PreferenceValue] = [:]
        let result: R
        while true {
            try ensureLoaded()
            // A reload may drop the cache between loading and locking; then load again.
            let attempt: R? = try state.withLock { state in
                guard var values = state.values else { return nil }
                before = values
                let result = try body(&values)
                if values != before {
                    state.values = values
                    generationCounter.add(1, ordering: .releasing)
                    for key in Set(before.keys).union(values.keys) where before[key] != values[key] {
                        state.pending.record(
                            key: key, from: before[key], to: values[key], depth: state.entryDepth(ofKey: key))
                    }
                }
                after = values
                return result
            }
            if let attempt {
                result = attempt
                break
            }
        }
        guard before != after else { return result }
        if isSynchronous { try flush() }
        notifyDifferences(from: before, to: after, reason: .set)
        return result
    }

    // MARK: Disk

    /// True when there are changes not yet written by ``flush()``.
    package var hasUnflushedChanges: Bool {
        state.withLock { !$0.pending.isEmpty }
    }

    /// Writes the keys changed since the last flush, merged into the file as it is now; does nothing
    /// when there are none. Other processes' changes found in the file are adopted (observers hear of
    /// them with reason ``PreferenceChange/Reason/reload``).
    ///
    /// When the process missed a switch of the home, the write goes to the file of the container it
    /// read, wherever that container now waits, never into the container live now; the cache keeps
    /// serving the container it read until ``reload()``.
    ///
    /// - Throws: ``PreferencesError/Code/writeFailed``,
    ///   ``PreferencesError/Code/writeRefused``; the changes stay pending and the file keeps
    ///   its previous content.
    package func flush() throws {
        if !hasUnflushedChanges { return }
        try mergeWithFile(always: false)
    }

    /// Writes the pending changes as ``flush()`` does, and adopts the changes other processes made to
    /// the file even when there are none of one's own.
    package func synchronize() throws {
        try mergeWithFile(always: true)
    }

    /// Re-reads the file after a container switch, as one step that no change interleaves with.
    ///
    /// Changes made since the last flush were made against the container left: with a coordinator
    /// that fences writes they are written to that container's file first, wherever it now is; with
    /// another they are dropped (they would land in the new container), as they are after a clean.
    /// Then the coordinator follows the live file and the cache is read from it. Observers hear of
    /// every key whose value differs.
    ///
    /// - Throws: ``PreferencesError/Code/corruptFile``; the cache then stays empty, so later
    ///   reads fail the same way instead of serving the previous file's values. A failure to write
    ///   the earlier changes is thrown after the reload, which happens all the same.
    package func reload() throws {
        let (old, new): ([String: PreferenceValue]?, [String: PreferenceValue])
        var unwritten: (any Error)?
        do {
            (old, new) = try fileLock.withLock { _ in
                // The state's lock is held throughout, so no change falls between the files.
                try state.withLock { state in
                    if coordinator.fencesWrites && !state.pending.isEmpty {
                        do {
                            try writeToTheFileLeft(state.pending)
                        } catch {
                            unwritten = error
                        }
                    }
                    state.pending = PendingChanges()
                    coordinator.followLiveFile()
                    let new = try coordinator.withLock(forLiveFile: fileURL, writing: false) { location in
                        try readFile(location.url)
                    }
                    defer {
                        state.values = new
                        generationCounter.add(1, ordering: .releasing)
                    }
                    return (state.values, new)
                }
            }
        } catch {
            state.withLock { state in
                state.values = nil
                state.pending = PendingChanges()
                generationCounter.add(1, ordering: .releasing)
            }
            throw error
        }
        if let old { notifyDifferences(from: old, to: new, reason: .reload) }
        if let unwritten { throw unwritten }
    }

    /// Merges `pending` into the file it was read from when a switch moved that file away; when the
    /// file read is still the live one (its container was emptied in place: a clean), the changes go
    /// with the rest of its content.
    private func writeToTheFileLeft(_ pending: PendingChanges) throws {
        try coordinator.withLock(forLiveFile: fileURL, writing: true) { location in
            if !location.isLive { _ = try merge(pending, into: location.url) }
        }
    }

    /// Merges `pending` into the file the coordinator names now, writing it when there is anything to
    /// merge (the caller holds the file lock); returns the file's values and whether it is the live one.
    private func merge(
        _ pending: PendingChanges
    ) throws -> (merged: [String: PreferenceValue], isLive: Bool) {
        try coordinator.withLock(forLiveFile: fileURL, writing: !pending.isEmpty) { location in
            (try merge(pending, into: location.url), location.isLive)
        }
    }

    /// Reads the file at `url`, applies `pending`, writes the result when there was anything to apply
    /// and returns it (under the coordinator's lock).
    private func merge(_ pending: PendingChanges, into url: URL) throws -> [String: PreferenceValue] {
        var merged = try readFile(url)
        pending.apply(to: &merged)
        if !pending.isEmpty { try writeFile(merged, to: url) }
        return merged
    }

    /// The per-key merge of ``flush()`` and ``synchronize()``.
    private func mergeWithFile(always: Bool) throws {
        let adopted: (old: [String: PreferenceValue], new: [String: PreferenceValue])? = try fileLock.withLock { _ in
            let pending = state.withLock { $0.pending }
            guard always || !pending.isEmpty else { return nil }
            let (merged, isLive) = try merge(pending)
            return state.withLock { state in
                // Keys changed again while the file was written stay pending, with their newer values.
                state.pending.removeWritten(pending)
                guard isLive, let old = state.values else { return nil }
                var new = merged
                state.pending.apply(to: &new)
                state.values = new
                generationCounter.add(1, ordering: .releasing)
                return (old, new)
            }
        }
        if let adopted { notifyDifferences(from: adopted.old, to: adopted.new, reason: .reload) }
    }

    /// Merges the dictionary under `key` entry by entry, `depth` levels deep, instead of as one value.
    ///
    /// With depth 2, two processes that each set one entry `key → feature → variable` both keep theirs,
    /// where a whole-key merge would keep only the last writer's dictionary. Use it only for
    /// dictionaries whose entries are independent values; a `Codable` value must stay whole, or two
    /// writers of different fields would leave a mix neither wrote.
    package func mergeEntries(ofKey key: String, depth: Int) {
        state.withLock { state in
            state.entryDepths.removeAll { $0.key == key }
            state.entryDepths.append((key, max(0, depth)))
        }
    }

    // MARK: Observation

    /// Calls `handler` after each change of `key` (or of any key when `key` is nil), including changes
    /// found by ``reload()``. Keep the returned observation: dropping it removes the observer.
    package func observe(
        key: String? = nil, _ handler: @escaping @Sendable (PreferenceChange) -> Void
    ) -> PreferencesObservation {
        observers.add(key: key, handler)
    }

    // MARK: Private

    /// The cached values (a copy-on-write snapshot, so copying out of the lock costs a retain).
    private func loadedValues() throws -> [String: PreferenceValue] {
        while true {
            if let values = state.withLock({ $0.values }) { return values }
            try ensureLoaded()
        }
    }

    private func ensureLoaded() throws {
        if state.withLock({ $0.values != nil }) { return }
        try fileLock.withLock { _ in
            if state.withLock({ $0.values != nil }) { return }
            let loaded = try coordinator.withLock(forLiveFile: fileURL, writing: false) { location in
                try readFile(location.url)
            }
            state.withLock { state in
                if state.values == nil {
                    state.values = loaded
                    generationCounter.add(1, ordering: .releasing)
                }
            }
        }
    }

    /// Serialises `values` and writes them to `url` atomically.
    private func writeFile(_ values: [String: PreferenceValue], to url: URL) throws {
        let data: Data
        do {
            data = try PreferenceValue.propertyListData(from: values)
        } catch {
            throw PreferencesError.writeFailed(path: url.path, step: "serialise", reason: "\(error)")
        }
        try AtomicFile.write(data, to: url)
    }

    /// Reads and parses the file at `url`; a missing or empty file is an empty store.
    private func readFile(_ url: URL) throws -> [String: PreferenceValue] {
        guard let data = try AtomicFile.read(url), !data.isEmpty else { return [:] }
        return try PreferenceValue.dictionary(fromPropertyList: data, path: url.path)
    }

    private func notifyDifferences(
        from old: [String: PreferenceValue], to new: [String: PreferenceValue], reason: PreferenceChange.Reason
    ) {
        guard !observers.isEmpty else { return }
        for key in Set(old.keys).union(new.keys).sorted() where old[key] != new[key] {
            notifyChange(ofKey: key, from: old[key], to: new[key], reason: reason)
        }
    }

    private func notifyChange(
        ofKey key: String, from old: PreferenceValue?, to new: PreferenceValue?, reason: PreferenceChange.Reason,
        keyObservers: ObserverList<PreferenceChange>? = nil
    ) {
        guard !observers.isEmpty else { return }
        observers.notify(
            PreferenceChange(key: key, oldValue: old, newValue: new, reason: reason), keyList: keyObservers)
    }
}
