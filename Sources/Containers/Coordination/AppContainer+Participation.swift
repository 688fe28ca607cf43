import Foundation

extension AppContainer {
    // MARK: Asking other processes

    /// Asks the other attached processes to prepare for a change; call with the lock held, after this
    /// instance's own will-change hooks.
    ///
    /// - Throws: ``ContainerError/Code/switchCancelled`` when one refused or did not answer;
    ///   ``ContainerError/Code/unreachableHosts`` when hosts are attached but no
    ///   ``remoteParticipants`` can reach them.
    func prepareRemote(_ kind: HomeChange.Kind, to: Container, from: Container) throws -> PreparedHomeChange? {
        guard let remote = remoteParticipants else {
            let attached = try AttachedHosts(layout: layout).live().map(\.pid)
            if !attached.isEmpty { throw ContainerError.unreachableHosts(pids: attached) }
            return nil
        }
        do {
            return try remote.prepare(HomeChange(kind: kind, to: to, from: from))
        } catch {
            throw ContainerError.switchCancelled(underlying: error)
        }
    }

    /// Tells the processes that prepared how the change ended; returns those that did not finish their
    /// part in time. Call with the home's lock still held.
    @discardableResult
    func finishRemote(_ prepared: PreparedHomeChange, committed: Bool) -> [Int32] {
        remoteParticipants?.finish(prepared, committed: committed) ?? []
    }

    /// Tells this instance's list hooks, then the other attached processes, that the list of containers
    /// changed; call once the home's lock is released.
    func announceListChange(_ change: ContainerListChange) {
        hearListChange(change)
        remoteParticipants?.announce(change)
    }

    /// Runs the list hooks for a change of the list of containers that another process made — what its
    /// `announce(_:)` reached this process for.
    package func hearListChange(_ change: ContainerListChange) {
        for hook in observers.listHooks() { hook(change) }
    }

    /// Runs `body`; if it throws after other processes prepared, tells them the change did not happen.
    func abandoningRemote<T>(_ prepared: PreparedHomeChange?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            if let prepared { finishRemote(prepared, committed: false) }
            throw error
        }
    }

    /// Records the epoch this instance made the home reach.
    func noteOwnChange() throws {
        let now = try epoch
        settings.withLock { $0.knownEpoch = now }
    }

    // MARK: Taking part in another process's change

    /// This instance's part before a change another process makes: the will-change delegates and hooks
    /// (any may refuse by throwing), then the participants flush. Called by the runtime when the asking
    /// process says so, while that process holds the home's lock: nothing here takes it.
    ///
    /// A hook that tries to change containers on this thread meanwhile gets
    /// ``ContainerError/Code/reentrantOperation`` at once rather than waiting for the lock the asker holds.
    package func takePart(in change: HomeChange) throws {
        let claim = try ReentrancyGuard.claim(home: layout.home, operation: "change containers")
        defer { ReentrancyGuard.release(claim) }
        // A change this instance missed (its asker died before telling it, or it was busy) is caught up
        // with first, while the home is as that change left it — unless the runtime's lock is busy
        // (a long script): the asker does not wait for that here, the catch-up comes later.
        _ = try serialized(waitingAtMost: 0) { try synchronizeWithHome() }
        guard change.kind == .switch else { return }
        for callee in observers.callees() {
            switch callee {
            case .delegate(let delegate): try delegate.object.containerWillChange(to: change.to, from: change.from)
            case .willHook(let hook): try hook(change.to, change.from)
            case .didHook: break
            }
        }
        for participant in observers.participants() { try participant.object.prepareForSwitch() }
    }

    /// This instance's part after a change another process made, while that process still holds the
    /// home's lock and waits for it: the participants reload and the did-change delegates and hooks run
    /// with the home as the change left it (see ``synchronizeWithHome()``).
    ///
    /// The ``changeSerializer`` is waited for at most `seconds`: the asker waits only so long, and a part
    /// done after it gave up could see the data of a later change. A hook that tries to change
    /// containers meanwhile gets ``ContainerError/Code/reentrantOperation`` at once rather than waiting
    /// for the lock the asker holds.
    ///
    /// - Returns: false, having done nothing, when the serializer stayed busy (a long script, say); the
    ///   catch-up then comes later, through `waitForChangesToEnd()` or the next change's preparation.
    package func finishTakingPart(waitingAtMost seconds: Double) throws -> Bool {
        let claim = try ReentrancyGuard.claim(home: layout.home, operation: "change containers")
        defer { ReentrancyGuard.release(claim) }
        return try serialized(waitingAtMost: seconds) { try synchronizeWithHome() } != nil
    }

    /// Catches up with the home as it is now: when another process switched (or cleaned the active
    /// container) since this instance last looked, the participants reload and — for a switch — the
    /// did-change delegates and hooks run and the notification is posted, as if this instance had
    /// switched, from the container this instance last saw to the one live now. Does nothing when the
    /// home is where this instance left it, so it can be called as often as wanted.
    ///
    /// Call it while the home cannot change: holding its lock, or on the word of a process that holds it
    /// (``finishTakingPart(waitingAtMost:)``, ``takePart(in:)``); otherwise the hooks could run while a
    /// later change moves the data.
    ///
    /// - Returns: whether there was anything to catch up with.
    @discardableResult
    package func synchronizeWithHome() throws -> Bool {
        let current = try epoch
        let previous = settings.withLock { settings -> HomeEpoch? in
            let previous = settings.knownEpoch
            settings.knownEpoch = current
            return previous
        }
        guard let previous, previous != current else { return false }
        for participant in observers.participants() { participant.object.containerDidSwitch() }
        if previous.activeContainer != current.activeContainer {
            // Both ends from the epochs, never from the home as it is by the time this line runs.
            let to = try existing(current.activeContainer)
            let from = try store.container(previous.activeContainer)
            announce(CompletedSwitch(to: to, from: from))
        }
        return true
    }

    /// Waits until no process holds the home's lock — the change under way, if any, is over or its
    /// process died — then catches up with the home (see `synchronizeWithHome()`) holding the
    /// `changeSerializer` and the home's lock, so no other change moves the data while the did-change
    /// hooks run (a hook that tries to change containers meanwhile is refused at once). A crashed switch
    /// is finished first.
    package func waitForChangesToEnd() throws {
        try exclusively("catch up with a change of the home", initialize: false) { _ in
            _ = try synchronizeWithHome()
        }
    }

    /// Runs `body` while no change of the home can run: holding the ``changeSerializer`` and the home's
    /// lock, once a change another process has under way has ended (and this instance caught up with it,
    /// its did-change hooks run). A host swaps the hooks of reloaded scripts so: no switch begins under
    /// one set and ends under the other.
    ///
    /// - Throws: ``ContainerError/Code/reentrantOperation`` from inside a change or its did-change hooks.
    package func betweenChanges<Result: Sendable>(_ operation: String, _ body: () throws -> Result) throws -> Result {
        if ReentrancyGuard.isAnnouncing(home: layout.home) { throw ContainerError.reentrantOperation(operation) }
        return try exclusively(operation, initialize: false) { _ in
            _ = try synchronizeWithHome()
            return try body()
        }
    }

    /// Runs `body` holding the ``changeSerializer`` if it can be had within `seconds` (nil otherwise),
    /// or at once when there is none.
    private func serialized<T>(waitingAtMost seconds: Double, _ body: () throws -> T) throws -> T? {
        guard let serializer = changeSerializer else { return try body() }
        return try serializer.withLock(waitingAtMost: seconds, body)
    }
}
