public import Foundation
import Locking

/// Several complete, switchable environments ("containers") of one application's home directory.
///
/// The live home always holds the active container's entries. The others wait, each in its own folder
/// under `<home>/.envscript-containers/containers/<UUID>/data`, and a switch exchanges them with
/// `rename(2)` of whole top-level entries, so it takes the same time for ten files as for a hundred
/// thousand. The original data is the DEFAULT container (UUID `00000000-0000-0000-0000-000000000000`);
/// a home that was never switched has only it.
///
/// Every changing operation holds an OS file lock on the home (and an in-process lock), so processes
/// and threads never change one home at once. A switch is journaled first: if the process dies part-way,
/// the next ``AppContainer`` opened on the home (or the next changing operation) finishes it, so the
/// home ends exactly in the old or the new container with no entry lost or doubled.
///
/// A second instance over another root plays the role of an app group.
public final class AppContainer: Sendable {
    /// The application's writable root whose entries are switched.
    public let home: URL

    let layout: HomeLayout
    let store: MetadataStore

    /// A folder in the home's bookkeeping for the tools' own files (the REPL's history): never switched
    /// with the containers, emptied by ``reset()``. Made by whoever first writes there.
    package var toolsFolder: URL { URL(fileURLWithPath: layout.tools, isDirectory: true) }
    let observers = ChangeObservers()

    struct Settings: Sendable {
        var excludeFiles: [String] = []
        var stepObserver: (@Sendable (SwitchStep) -> Void)?
        var remoteParticipants: (any RemoteParticipants)?
        var changeSerializer: (any ChangeSerializer)?
        /// The epoch this instance last saw the home in: after its own changes, and after catching up
        /// with other processes' (``synchronizeWithHome()``).
        var knownEpoch: HomeEpoch?
    }

    let settings = Locked(Settings())
    /// Serialises this instance's changing operations; the file lock does the same across processes.
    private let gate = Locked(())

    /// Opens the containers of `home`, finishing a switch that a crashed process left half done.
    ///
    /// Nothing is written to a home that was never switched.
    ///
    /// - Throws: ``ContainerError/Code/homeNotFound`` when `home` is not a folder;
    ///   ``ContainerError/Code/recoveryFailed`` when an interrupted switch cannot be repaired.
    public init(home: URL) throws {
        self.home = home
        layout = HomeLayout(home: home)
        store = MetadataStore(layout: layout)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: layout.home, isDirectory: &isFolder), isFolder.boolValue else {
            throw ContainerError.homeNotFound(path: layout.home)
        }
        try ApplicationRecord.discardRemovedBookkeeping(layout)
        if try FileSystem.exists(layout.bookkeeping) {
            try reading("open the home", initialize: false) {}
        }
        let opened = try epoch
        settings.withLock { $0.knownEpoch = opened }
    }

    /// A lock of the embedding runtime that every change of this instance takes before the engine's own
    /// locks, or nil. The EnvScript runtime sets its host lock here: its Lua hooks take that lock while
    /// a change holds the engine's locks, and its scripts hold it when they change containers, so one
    /// order (runtime lock, gate, home file lock) is the only way to never deadlock.
    package var changeSerializer: (any ChangeSerializer)? {
        get { settings.withLock { $0.changeSerializer } }
        set { settings.withLock { $0.changeSerializer = newValue } }
    }

    /// The other processes that take part in every change of this home (running hosts reached through
    /// their control sockets), or nil. Without it, a change is refused while hosts are attached, since
    /// they could not take their part.
    package var remoteParticipants: (any RemoteParticipants)? {
        get { settings.withLock { $0.remoteParticipants } }
        set { settings.withLock { $0.remoteParticipants = newValue } }
    }

    /// Path-suffix rules naming entries of the live home that are not part of any container: they stay
    /// in place across switches, and clean and clone leave them out.
    ///
    /// Rules match whole path components: `a.plist` matches `a.plist` and `x/a.plist` but not
    /// `data.plist`; `Library/Preferences/x.plist` matches that path and any path ending with it. A rule
    /// matching a folder keeps the whole folder. Rules live in memory: set the same ones in every process
    /// that switches the home. With rules set, a switch lists the live tree (names only) to find the
    /// excluded entries; without, it never looks below the top level.
    public var customExcludeFiles: [String] {
        get { settings.withLock { $0.excludeFiles } }
        set { settings.withLock { $0.excludeFiles = newValue } }
    }

    /// Sets (or, with nil, removes) a closure told about every point a switch passes, on the switching
    /// thread. Meant for tracing, benchmarks and crash tests; it must return quickly.
    public func observeSwitchSteps(_ observer: (@Sendable (SwitchStep) -> Void)?) {
        settings.withLock { $0.stepObserver = observer }
    }

    var excludeRules: ExcludeRules { ExcludeRules(customExcludeFiles) }

    func report(_ step: SwitchStep) {
        settings.withLock { $0.stepObserver }?(step)
    }

    // MARK: Delegates, hooks and participants

    /// Adds a delegate, held weakly, told before and after each switch. Adding it again does nothing.
    public func add(delegate: any AppContainerDelegate) {
        observers.add(delegate: delegate)
    }

    /// Removes a delegate.
    public func remove(delegate: any AppContainerDelegate) {
        observers.remove(delegate: delegate)
    }

    /// Adds a closure run before each switch, after the delegates and hooks registered earlier; if it
    /// throws, the switch is cancelled with nothing changed on disk.
    @discardableResult
    public func addWillChangeHook(_ hook: @escaping WillChangeHook) -> HookToken {
        observers.addWillChange(hook)
    }

    /// Adds a closure run after each switch, after the delegates and hooks registered earlier.
    @discardableResult
    public func addDidChangeHook(_ hook: @escaping DidChangeHook) -> HookToken {
        observers.addDidChange(hook)
    }

    /// Adds a closure run after the list of containers changed — one created, cloned, renamed, described
    /// or deleted, or the home reset — by this instance or by another process attached to the home (those
    /// are heard of when this instance belongs to an EnvScript runtime). Remove it with ``removeHook(_:)``.
    @discardableResult
    public func addContainerListHook(_ hook: @escaping ContainerListHook) -> HookToken {
        observers.addListChange(hook)
    }

    /// Removes a hook added with ``addWillChangeHook(_:)``, ``addDidChangeHook(_:)`` or
    /// ``addContainerListHook(_:)``.
    ///
    /// - Returns: whether the hook was registered.
    @discardableResult
    public func removeHook(_ token: HookToken) -> Bool {
        observers.remove(hook: token)
    }

    /// Adds a participant, held weakly, that flushes before each switch and reloads after it.
    public func add(participant: any SwitchParticipant) {
        observers.add(participant: participant)
    }

    /// Removes a participant.
    public func remove(participant: any SwitchParticipant) {
        observers.remove(participant: participant)
    }

    // MARK: Exclusive access

    /// A switch done by an operation, announced once the lock is released.
    struct CompletedSwitch: Sendable {
        let to: Container
        let from: Container?
        /// The other processes that prepared for it, told before the lock is released.
        var remote: PreparedHomeChange?
        /// Whether did-change delegates and hooks run (a clean only has participants reload).
        var announces = true
        var keptNewcomers: [KeptNewcomer] = []
    }

    /// Runs `body` holding the ``changeSerializer`` (when set and `serialized`), this instance's gate
    /// and the home's file lock — always in that order — after finishing any journal a crashed process
    /// left; then runs the did-change delegates and hooks of a switch `body` made.
    ///
    /// - Parameters:
    ///   - initialize: create the bookkeeping (DEFAULT active) if the home has none yet.
    ///   - serialized: take the ``changeSerializer`` first. Only waiting for another process's change
    ///     goes without it: that process may need the serializer (a hook of this host) to finish.
    ///
    /// While another process holds the home's lock, this one waits holding neither the serializer nor
    /// the gate: that process may be asking this one to take part in its change, which runs this
    /// host's hooks under the serializer. A hold the caller itself has on the serializer (a control
    /// request of the runtime, run under its lock) is let go for the wait too, where the serializer
    /// allows it (``ChangeSerializer/lettingGo(while:)``).
    ///   - interruption: where a Ctrl-C handler asks the change to stop (see ``ChangeInterruption``).
    func exclusively<Result: Sendable>(
        _ operation: String, initialize: Bool = true, serialized: Bool = true,
        _ body: (inout ChangeInProgress) throws -> Result
    ) throws -> Result {
        try exclusivelyReporting(operation, initialize: initialize, serialized: serialized, body).result
    }

    /// ``exclusively(_:initialize:serialized:_:)``, returning the change's report with its result.
    func exclusivelyReporting<Result: Sendable>(
        _ operation: String, initialize: Bool = true, serialized: Bool = true,
        interruption: ChangeInterruption? = nil,
        _ body: (inout ChangeInProgress) throws -> Result
    ) throws -> (result: Result, report: ContainerChangeReport) {
        while true {
            if let outcome = try exclusivelyIfFree(
                operation, initialize: initialize, serialized: serialized, interruption: interruption, body)
            {
                return outcome
            }
            // Not even a caller's hold on the serializer is kept while waiting (see the note above).
            // Never while announcing a switch: the observers after this one must still see it as the last.
            if serialized, let serializer = changeSerializer, !ReentrancyGuard.isAnnouncing(home: layout.home) {
                try serializer.lettingGo { try HomeLock.waitUntilFree(layout) }
            } else {
                try HomeLock.waitUntilFree(layout)
            }
        }
    }

    /// ``exclusivelyReporting(_:initialize:serialized:interruption:_:)`` if the home's lock is free now;
    /// `nil`, having run nothing, if another process holds it.
    private func exclusivelyIfFree<Result: Sendable>(
        _ operation: String, initialize: Bool, serialized: Bool, interruption: ChangeInterruption?,
        _ body: (inout ChangeInProgress) throws -> Result
    ) throws -> (result: Result, report: ContainerChangeReport)? {
        if serialized, let serializer = changeSerializer {
            return try serializer.withLock {
                try exclusivelyIfFree(operation, initialize: initialize, serialized: false, interruption: interruption, body)
            }
        }
        var change = ChangeInProgress(interruption: interruption)
        let outcome: Swift.Result<Result?, any Error>
        do {
            let claim = try ReentrancyGuard.claim(home: layout.home, operation: operation)
            defer { ReentrancyGuard.release(claim) }
            outcome = gate.withLock { _ in
                Swift.Result {
                    try HomeLock.holdingIfFree(layout) {
                        try repairLocked()
                        if initialize { try store.initializeIfNeeded(now: Date()) }
                        let result = try body(&change)
                        // The other processes reload and run their did-change hooks while the home is
                        // still as this change left it: no later change moves the data under them.
                        defer {
                            if let remote = change.completed?.remote {
                                change.report.participants = remote.participants
                                change.report.lateParticipants = finishRemote(remote, committed: true)
                            }
                        }
                        try FileSystem.removeTree(layout.trash)
                        return result
                    }
                }
            }
        }
        // Outside the lock, so that our did-change hooks may change containers again.
        if let completed = change.completed, completed.announces { announce(completed) }
        return try outcome.get().map { ($0, change.report) }
    }

    /// Finishes a journal left by a crash and clears what interrupted operations leave behind.
    private func repairLocked() throws {
        let runner = JournalRunner(layout: layout, report: { [self] step in
            if case .keptNewcomer = step { report(step) } // the rest belongs to the crashed process's switch
        })
        if try layout.journals.contains(where: FileSystem.exists) {
            try HomeLock.holdingStores(layout) { _ = try runner.recover() }
        }
        try FileSystem.removeTree(layout.trash)
        try ApplicationRecord.discardRemovedBookkeeping(layout)
        try removeTemporaryFiles(in: layout.bookkeeping)
        for uuid in try store.containerUUIDs() {
            try removeTemporaryFiles(in: layout.containerFolder(uuid))
        }
    }

    /// Removes the temporary files of atomic writes that a crash interrupted.
    private func removeTemporaryFiles(in folder: String) throws {
        for entry in try FileSystem.list(folder) where entry.name.hasPrefix(".") && entry.name.contains(".tmp-") {
            try FileSystem.removeFile(folder + "/" + entry.name)
        }
    }
}
