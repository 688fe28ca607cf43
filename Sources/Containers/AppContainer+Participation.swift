import Foundation

extension AppContainer {
    // MARK: Asking other processes

    /// Asks the other attached processes to prepare for a change; call with the lock held, after this
    /// instance's own will-change hooks.
    ///
    /// - Throws: ``ContainerError/switchCancelled(underlying:)`` when one refused or did not answer;
    ///   ``ContainerError/unreachableHosts(pids:)`` when hosts are attached but no
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

    /// Tells the processes that prepared how the change ended, and remembers who took part.
    func finishRemote(_ prepared: PreparedHomeChange, committed: Bool) {
        remoteParticipants?.finish(prepared, committed: committed)
        settings.withLock { $0.lastRemoteParticipants = committed ? prepared.participants : [] }
    }

    /// Tells this instance's list hooks, then the other attached processes, that the list of containers
    /// changed; call once the home's lock is released.
    func announceListChange(_ change: ContainerListChange) {
        hearListChange(change)
        remoteParticipants?.announce(change)
    }

    /// Runs the list hooks for a change of the list of containers that another process made — what its
    /// ``RemoteParticipants/announce(_:)`` reached this process for.
    public func hearListChange(_ change: ContainerListChange) {
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
    /// ``ContainerError/reentrantOperation(_:)`` at once rather than waiting for the lock the asker holds.
    public func takePart(in change: HomeChange) throws {
        let claim = try ReentrancyGuard.claim(home: layout.home, operation: "change containers")
        defer { ReentrancyGuard.release(claim) }
        // A change this instance missed (its asker died before telling it) is caught up with first.
        try synchronizeWithHome()
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

    /// Catches up with the home as it is now: when another process switched (or cleaned the active
    /// container) since this instance last looked, the participants reload and — for a switch — the
    /// did-change delegates and hooks run and the notification is posted, as if this instance had
    /// switched. Does nothing when the home is where this instance left it, so it can be called as
    /// often as wanted: on the asker's word, and when the asker vanished without a word.
    ///
    /// - Returns: whether there was anything to catch up with.
    @discardableResult
    public func synchronizeWithHome() throws -> Bool {
        let current = try epoch
        let previous = settings.withLock { settings -> HomeEpoch? in
            let previous = settings.knownEpoch
            settings.knownEpoch = current
            return previous
        }
        guard let previous, previous != current else { return false }
        for participant in observers.participants() { participant.object.containerDidSwitch() }
        if previous.activeContainer != current.activeContainer {
            let to = try activeContainer
            let from = try store.container(previous.activeContainer)
            announce(CompletedSwitch(to: to, from: from))
        }
        return true
    }

    /// Waits until no process holds the home's lock — the change under way, if any, is over or its
    /// process died — then catches up with the home (see ``synchronizeWithHome()``). A crashed switch is
    /// finished first.
    public func waitForChangesToEnd() throws {
        try exclusively("wait for a change of the home to end", initialize: false, serialized: false) { _ in }
        try synchronizeWithHome()
    }
}
