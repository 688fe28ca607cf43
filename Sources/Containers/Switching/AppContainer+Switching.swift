public import Foundation

extension AppContainer {
    /// Makes `container` the active one: its entries move into the live home and the current ones into
    /// their container's folder.
    ///
    /// In order: the home is locked; will-change delegates and hooks run (an error cancels); the
    /// participants flush; the moves are journaled and made with `rename(2)`; the new active container is
    /// recorded; the participants reload; did-change delegates and hooks run and the notifications are
    /// posted. Activating the active container does nothing: no hook runs and its activation count
    /// stays.
    ///
    /// An entry that an application put where an incoming entry goes, while the switch was under way, is
    /// neither overwritten nor taken for that entry: it is set aside in the conflicts folder of the
    /// container left, told to the step observer and listed in the did-change notification (see
    /// ``KeptNewcomer``), and the switch completes.
    ///
    /// - Throws: ``ContainerError/Code/notFound``, ``ContainerError/Code/switchCancelled`` when a
    ///   will-change delegate, hook or participant threw (nothing changed), ``ContainerError/Code/conflict``
    ///   (nothing changed), ``ContainerError/Code/io`` (the moves made were undone: a failed
    ///   switch changes nothing on disk), ``ContainerError/Code/interrupted`` when
    ///   the command line's interruption (Ctrl-C) asked the switch to stop before it was made (undone likewise), or
    ///   ``ContainerError/Code/refusedJournal`` when a journal left in the home does not belong
    ///   to its current state (nothing changed).
    @discardableResult
    public func activate(container: Container) throws -> ContainerChangeReport {
        try activateContainer(uuid: container.uuid)
    }

    /// Makes `container` the active one, stopping (and undoing) the switch when `interruption` asks
    /// before its commit point; see ``activate(container:)``.
    @discardableResult
    package func activate(container: Container, interruption: ChangeInterruption?) throws -> ContainerChangeReport {
        try exclusivelyReporting("activate a container", interruption: interruption) { change in
            try switchLocked(to: container.uuid, in: &change)
        }.report
    }

    /// Makes the container with `uuid` the active one; see ``activate(container:)``.
    @discardableResult
    public func activateContainer(uuid: UUID) throws -> ContainerChangeReport {
        try exclusivelyReporting("activate a container") { change in
            try switchLocked(to: uuid, in: &change)
        }.report
    }

    /// Makes the container with the UUID written as `uuid` the active one; see ``activate(container:)``.
    ///
    /// - Throws: ``ContainerError/Code/invalidUUID`` when `uuid` is not a UUID.
    @discardableResult
    package func activateContainer(uuid: String) throws -> ContainerChangeReport {
        try activateContainer(uuid: Self.parseUUID(uuid))
    }

    /// The switch itself, with the lock held. Sets `change.completed` once the switch is committed.
    func switchLocked(to targetUUID: UUID, in change: inout ChangeInProgress) throws {
        let target = try existing(targetUUID)
        let activeUUID = try store.activeUUID()
        if activeUUID == targetUUID { return }
        // A did-change hook that switches would chain switches without end (one that goes back
        // where it came from ping-pongs): refused, and the home stays where the user asked.
        if ReentrancyGuard.isAnnouncing(home: layout.home) {
            let announced = try store.container(activeUUID)?.name ?? activeUUID.uuidString
            throw ContainerError.switchWhileAnnouncing(to: target.name, announced: announced)
        }
        guard let from = try store.container(activeUUID) else {
            throw ContainerError.corruptMetadata(
                path: layout.state, reason: "it names container \(activeUUID.uuidString) as active, which does not exist")
        }
        report(.locked)

        do {
            for callee in observers.callees() {
                switch callee {
                case .delegate(let delegate): try delegate.object.containerWillChange(to: target, from: from)
                case .willHook(let hook): try hook(target, from)
                case .didHook: break
                }
            }
        } catch {
            throw ContainerError.switchCancelled(underlying: error)
        }
        try change.stopIfInterrupted(Self.switchDescription(from: from, to: target))
        // The other processes attached to the home: their flush and will-change hooks (any may refuse).
        let remote = try prepareRemote(.switch, to: target, from: from)
        report(.willChangeDone)

        try abandoningRemote(remote) {
            try moveEntriesLocked(from: from, to: target, remote: remote, in: &change)
        }
    }

    /// The rest of a switch once everyone agreed: flush, moves, commit, reload.
    private func moveEntriesLocked(
        from: Container, to target: Container, remote: PreparedHomeChange?, in change: inout ChangeInProgress
    ) throws {
        let activeUUID = from.uuid
        let targetUUID = target.uuid
        let participants = observers.participants()
        do {
            for participant in participants { try participant.object.prepareForSwitch() }
        } catch {
            throw ContainerError.switchCancelled(underlying: error)
        }
        report(.participantsFlushed)
        let operation = Self.switchDescription(from: from, to: target)
        try change.stopIfInterrupted(operation)
        NotificationCenter.default.post(
            name: Self.containerWillChangeNotification, object: self,
            userInfo: [Self.toContainerUserInfoKey: target, Self.fromContainerUserInfoKey: from])

        var planner = SwitchPlanner(layout: layout, rules: excludeRules)
        try planner.planMoveOut(into: HomeLayout.dataFolder(activeUUID), owner: "container '\(from.name)'")
        try planner.planMoveIn(of: targetUUID)
        let activated = target.activated(at: Date())
        let journal = Journal(
            operation: operation,
            steps: planner.steps, activeAfter: targetUUID,
            metadataBefore: [target], metadataAfter: [activated], removeAfter: [])
        let kept = try run(journal, in: &change)
        try noteOwnChange()

        for participant in participants { participant.object.containerDidSwitch() }
        report(.participantsReloaded)
        change.completed = CompletedSwitch(to: activated, from: from, remote: remote, keptNewcomers: kept)
    }

    /// Writes `journal`, does its steps and commits it; if a step fails, undoes the steps done and
    /// rethrows the failure. Returns the newcomers set aside to make way for the moves. Holds the
    /// stores lock throughout, so no store writer sees the home half switched or an outdated epoch.
    /// A failure after the commit point is told in `change`'s report (``ContainerChangeReport/leftToFinish``):
    /// the change is made.
    @discardableResult
    func run(_ journal: Journal, in change: inout ChangeInProgress) throws -> [KeptNewcomer] {
        let interruption = change.interruption
        let outcome = try HomeLock.holdingStores(layout) {
            try JournalRunner(
                layout: layout, report: { [self] in report($0) },
                isInterrupted: { interruption?.isRequested == true }
            ).run(journal)
        }
        change.report.leftToFinish = outcome.leftToFinish.map { "\($0)" }
        return outcome.kept
    }

    /// Runs the did-change delegates and hooks, then posts the notification.
    /// A switch started meanwhile from the same thread (from a did-change hook) is refused: see
    /// ``ContainerError/Code/switchWhileAnnouncing``.
    func announce(_ change: CompletedSwitch) {
        ReentrancyGuard.announcing(home: layout.home) {
            for callee in observers.callees() {
                switch callee {
                case .delegate(let delegate): delegate.object.containerDidChange(to: change.to, from: change.from)
                case .didHook(let hook): hook(change.to, change.from)
                case .willHook: break
                }
            }
            var userInfo: [AnyHashable: Any] = [Self.toContainerUserInfoKey: change.to]
            if let from = change.from { userInfo[Self.fromContainerUserInfoKey] = from }
            if !change.keptNewcomers.isEmpty { userInfo[Self.keptNewcomersUserInfoKey] = change.keptNewcomers }
            NotificationCenter.default.post(name: Self.containerDidChangeNotification, object: self, userInfo: userInfo)
        }
        report(.didChangeDone)
    }
}
