public import Foundation
import Preferences

extension Application {
    /// Writes everything pending to the live home before a container switch moves it.
    ///
    /// Flushes the preferences (stored state). File and secure state have nothing pending: each write
    /// reached its file before returning.
    ///
    /// - Throws: `PreferencesError.writeFailed`; the switch should then
    ///   be cancelled, and nothing is lost.
    public func prepareForSwitch() throws {
        try flush()
    }

    /// Writes stored state that waits in the preferences cache to the container's file — call it when
    /// the process is about to end or be suspended. File and secure state need no flush.
    ///
    /// - Throws: `PreferencesError.writeFailed`; the changes stay pending.
    public func flush() throws {
        try preferences.flush()
    }

    /// Makes the state and dependencies those of the container now in the home, after a switch.
    ///
    /// - Stored state: the preferences are reloaded from the new container's file.
    /// - File and secure state: what was read is forgotten, so the next read comes from the new
    ///   container's files.
    /// - Memory state lives in this process, not in the container's files. When the runtime names the
    ///   containers (`containerID` here and in ``init(home:appID:secureKey:dependencies:containerID:logger:)``),
    ///   the values set in the container left are kept in memory and those kept for the container entered
    ///   come back, so switching away and back restores them, as for every other kind. When a container is
    ///   not named, its memory state cannot be told apart from another's, so every memory state is set back
    ///   to its initial value: a fresh start is always correct, carrying one container's values into
    ///   another never is.
    /// - Container-scoped dependencies are dropped and rebuilt on next use.
    ///
    /// Observers hear of the values that may have changed, with reason ``StateChangeReason/reloaded``.
    ///
    /// - Parameter containerID: the container now active, if the runtime names containers.
    /// - Throws: `PreferencesError.corruptFile` (or another read error) when
    ///   the new preferences cannot be read; everything else has switched all the same, and stored state
    ///   keeps failing with that error — never serving the previous container's values — until the file
    ///   is fixed and the preferences are reloaded.
    public func containerDidSwitch(to containerID: UUID? = nil) throws {
        var reloadError: (any Error)?
        do {
            try preferences.reload()
        } catch {
            reloadError = error
        }
        let slots = allSlots()
        for slot in slots { slot.containerDidSwitch() }
        switchMemoryState(slots.compactMap { $0 as? any MemoryStateSlot }, to: containerID)
        dependencies.containerDidSwitch()
        if let reloadError { throw reloadError }
    }

    /// Keeps the memory state of the container left (when named) and restores that of the one entered.
    private func switchMemoryState(_ slots: [any MemoryStateSlot], to newContainer: UUID?) {
        var leaving: [String: any Sendable] = [:]
        for slot in slots {
            if let value = slot.valueToKeep() { leaving[slot.key] = value }
        }
        let entering = registry.withLock { registry -> [String: any Sendable] in
            if let left = registry.containerID {
                registry.keptMemoryState[left] = leaving.isEmpty ? nil : leaving
            }
            registry.containerID = newContainer
            guard let newContainer else { return [:] }
            return registry.keptMemoryState.removeValue(forKey: newContainer) ?? [:]
        }
        for slot in slots { slot.restore(entering[slot.key]) }
    }

    /// Forgets the memory state kept for `containerID` — for a container that was deleted.
    package func forgetMemoryState(ofContainer containerID: UUID) {
        registry.withLock { _ = $0.keptMemoryState.removeValue(forKey: containerID) }
    }
}

extension Application {
    /// Adopts what other processes wrote to this container's state since it was read: the preferences
    /// merge with their file (stored state; this process's pending changes are written first), and
    /// file and secure state are read anew. Observers hear of the values that changed, with reason
    /// ``StateChangeReason/reloaded``. Memory state is this process's own and stays.
    public func synchronizeWithDisk() throws {
        try preferences.synchronize()
        for slot in allSlots() where slot.kind == .file || slot.kind == .secure {
            slot.containerDidSwitch()
        }
    }
}
