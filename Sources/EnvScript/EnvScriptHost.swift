public import AppState
public import Containers
package import Foundation
package import Logging
public import LuaBridge
package import Preferences
#if RemoteFlags
import RemoteTweaks
#endif
public import Tweaks
import Locking

/// The EnvScript runtime: one sandboxed Lua state over an application's home, with the engines
/// exposed to scripts as the Lua modules `container`, `tweak`, `state`, `dependency` and `crypto`.
///
/// Every entry into Lua goes through ``lock``, so the engines may call Lua providers, decryptors and
/// hooks from any thread. Closing the host (or dropping it) flushes the preferences and closes the
/// state, which releases every Lua function the host keeps.
///
/// One host serves every thread of an app: its UI reading flags, a background task switching
/// containers, a remote provider refreshing. (It is `Sendable` by construction rather than by the
/// compiler's proof: the Lua state is only used under ``lock``, the engines are `Sendable`, and the
/// host's own mutable parts sit behind ``lock`` or a mutex.)
public final class EnvScriptHost: @unchecked Sendable {
    /// How this host was set up.
    public let configuration: HostConfiguration
    /// The application identifier in use: the configured one, else the one recorded in the home, else
    /// ``HostConfiguration/defaultAppID``. It names the preferences file and the secure key file.
    public let appID: String
    /// The key file of secure state in use (see ``HostConfiguration/secureKeyFile``).
    package let secureKeyFile: URL
    /// The Lua state scripts run in: the one the start-up scripts last ran in (a reload makes a new one,
    /// see ``reloadStartupScripts()``). Use it under ``lock``.
    public var lua: LuaState { currentGeneration.lua }
    /// Serialises every use of ``lua``.
    public let lock = HostLock()
    /// The key-value store of the active container (`Library/Preferences/<appID>.plist` in the home,
    /// with ``appID``).
    package let preferences: PreferencesStore
    /// The feature flags, configured by start-up scripts through the `tweak` module. Until a script
    /// sets a stack, it holds one provider: the overrides stored in the container's preferences.
    public let tweaks: TweakManager
    /// The containers of ``HostConfiguration/home``. Every switch made through it — from Lua, from
    /// Swift or from the command line — runs the hooks the start-up scripts registered.
    public let containers: AppContainer

    /// The container operations every front door (Lua, the control API, the command line) goes through.
    package var containerOperations: ContainerOperations { ContainerOperations(containers) }
    /// Application state and dependencies, in the active container (the `state` and `dependency`
    /// modules); switched along with the containers.
    public let application: Application
    /// The record other processes find this host by while it is attached to its home, or nil.
    public var attachedHostRecord: AttachedHostRecord? {
        #if Control
        controlPlane?.record
        #else
        presence?.record
        #endif
    }
    /// The host modules scripts see, in the order they were registered; `envscript types` documents them.
    package var modules: [LuaModule] { currentGeneration.modules }
    /// The run of the start-up scripts in force, and those a reload replaced that are not closed yet (a
    /// lookup begun before the swap may still call into their state; see `reloadStartupScripts()`).
    let generations = Locked<(current: ScriptGeneration?, retired: [ScriptGeneration])>((nil, []))
    /// The generation in force.
    var currentGeneration: ScriptGeneration { generations.withLock { $0.current! } }
    /// Whether a call into Lua runs now on this thread's lock, in the state in force or one a reload
    /// replaced and has not closed yet (call under ``lock``).
    var isInCallIntoLua: Bool {
        let (current, retired) = generations.withLock { ($0.current, $0.retired) }
        return (current?.lua.isInCall ?? false) || retired.contains { $0.lua.isInCall }
    }
    /// The start-up scripts run so far, absolute, in order: what ``reloadStartupScripts()`` runs again.
    let startupScripts = Locked<[String]>([])
    /// Held by a reload from start to end, so that two run one after the other (and by ``close()``,
    /// which waits for one under way). Recursive: a reload asked for by the scripts being reloaded is
    /// refused rather than waiting for itself.
    let reloading = NSRecursiveLock()
    /// Whether a reload is under way (read and written holding ``reloading``).
    var isReloading = false
    /// What watches the start-up scripts and the files they loaded, with ``HostConfiguration/watchesStartupScripts``.
    let scriptWatch = Locked<FileChangePoller?>(nil)
    /// The stack a host has before its scripts set one: the overrides of the active container.
    let defaultProviders: [any TweakProvider]
    private let switchParticipant: HostSwitchParticipant
    #if RemoteFlags
    /// Starts, reloads after switches and stops the remote providers scripts declare.
    let remoteTweaks: RemoteTweakProviders
    #endif
    #if Control
    /// The control socket, the OFREP listener and the other hosts' part in this one's changes; set once,
    /// at the end of `init`.
    private var controlPlane: HostControlPlane?
    /// The TCP port of ``HostConfiguration/ofrepListener`` (the one picked when it asked for 0), while the
    /// host is open; nil without a listener.
    public var ofrepListenerPort: Int? { controlPlane?.ofrepListenerPort }
    #else
    /// The record that tells other processes this host is running and cannot take part in their
    /// switches (no control socket in this build); set once, at the end of `init`.
    private var presence: HostPresence?
    #endif
    /// Set once ``close()`` has saved the preferences: from then on the control API refuses requests,
    /// so nothing it acknowledges goes unsaved.
    let closing = Locked(false)
    /// What the last failed ``saveStores()`` threw, in words: ``close()`` does not log it again.
    private let reportedSaveFailure = Locked<String?>(nil)
    /// The cross-process lock and fencing of every store of the home (preferences, file and secure state).
    let storeCoordinator: ContainerStoreCoordinator

    package let logger = Logger(label: "envscript.host")
    /// The folders of the script files the host has compiled: with the script roots, the project folders
    /// that scripts' file permissions start from.
    private let scriptFolders = Locked<[String]>([])

    /// Creates the home folder when missing, settles the application identifier with the home's record,
    /// opens a Lua state with the configured limits and registers the host modules.
    ///
    /// - Throws: `HostError/Code/appIDMismatch` when the home belongs to
    ///   another application, `HostError/Code/homeUnusable`, and the engines' errors.
    public init(configuration: HostConfiguration) throws {
        self.configuration = configuration
        try Self.prepareHome(configuration.home)
        containers = try AppContainer(home: configuration.home)
        appID = try configuration.settleAppID(in: containers)
        #if Control
        // The control routes and server are made on a thread of their own while the rest opens.
        let opening = try HostControlPlane.begin(
            attaching: configuration.attachesToHome, home: configuration.home, appID: appID, role: configuration.role,
            limits: configuration.controlServerLimits)
        var attached = false
        defer { if !attached { opening.abandon() } }
        #endif
        secureKeyFile = configuration.secureKeyFile(appID: appID)
        storeCoordinator = try ContainerStoreCoordinator(containers: containers)
        preferences = PreferencesStore(home: configuration.home, appID: appID, coordinator: storeCoordinator)
        defaultProviders = [OverridesTweakProvider(store: preferences)]
        tweaks = TweakManager(providers: defaultProviders)
        #if RemoteFlags
        remoteTweaks = RemoteTweakProviders(logger: logger)
        #endif
        application = Application(
            home: configuration.home, appID: appID, preferences: preferences,
            secureKey: .keyFile(secureKeyFile), containerID: try containers.epoch.activeContainer)
        #if RemoteFlags
        switchParticipant = HostSwitchParticipant(
            containers: containers, application: application, tweaks: tweaks, remoteTweaks: remoteTweaks,
            logger: logger)
        #else
        switchParticipant = HostSwitchParticipant(containers: containers, application: application, tweaks: tweaks, logger: logger)
        #endif
        containers.add(participant: switchParticipant)
        // One lock order for every change, from Lua or Swift, on any thread: host lock, gate, file lock.
        containers.changeSerializer = lock
        let first = try ScriptGeneration(host: self, predecessor: nil)
        try first.registerModules { makeModules(for: $0) }
        generations.withLock { $0.current = first }
        #if Control
        // Every change this host makes gives the other attached hosts their part, and they hear of its
        // writes to the stores.
        controlPlane = try HostControlPlane(
            completing: opening, host: self, ofrepListener: configuration.ofrepListener,
            participationTimeout: configuration.participationTimeout)
        attached = true
        #else
        presence = configuration.attachesToHome ? try HostPresence(home: configuration.home, appID: appID, role: configuration.role) : nil
        containers.remoteParticipants = presence
        #endif
        if configuration.makesApplicationCurrent { application.makeCurrent() }
        // A control request (or the app's own Swift code) holding the lock while its change waits for
        // another process's lets go of it meanwhile: that process may need this host's hooks. A script
        // calling container.activate keeps it, standing on the Lua state.
        lock.allowLettingGo(LettingGoRule(
            allowsLettingGo: { [weak self] in self.map { !$0.isInCallIntoLua } ?? false },
            checkAfterTakingBack: { [weak self] in
                guard let self, lua.isOpen, !closing.withLock({ $0 }) else { throw HostError.closed }
            }))
        logger.debug("host opened", metadata: ["home": "\(configuration.home.path)"])
    }

    deinit { close() }

    /// Saves what waits in the stores now (as closing would), and throws when that fails: for a caller
    /// that reports the failure itself — `envscript run` fails a run whose state is not saved — so that
    /// closing does not log the same failure again.
    package func saveStores() throws {
        do {
            try lock.withLock { try application.flush() }
        } catch {
            reportedSaveFailure.withLock { $0 = "\(error)" }
            throw error
        }
    }

    /// Stops the remote providers (no fetch, no refresh, no write of their kept copies from then on),
    /// resigns the application as the process's current one, flushes the preferences and closes the Lua
    /// state. Calling it again does nothing. The tweak manager loses the script's providers without a
    /// change notification: its observers would otherwise be called back in the middle of the close
    /// (and the first notification of a process costs Foundation's bridging, a quarter of a millisecond).
    ///
    /// An attached host detaches first: its record and socket go, so no other process finds it any
    /// more, then its control server finishes the requests under way and stops. From synchronous code
    /// `close()` waits for that. From async code it does not block its thread for it (Hummingbird's
    /// shutdown may need that very thread of Swift's pool): the server stops in the background, and a
    /// request that had not reached the host when the preferences were saved is answered with the
    /// error "the host has closed" (500) and changes nothing.
    ///
    /// Called from inside a call into Lua (a hook, or a Swift function a script called, on the thread
    /// running the script), it is refused with an error in the log: the script still stands on the
    /// state. Close the host once the call has returned.
    public func close() {
        if lock.withLock({ isInCallIntoLua }) {
            logger.error("close() was called from inside a call into Lua and is refused: close the host once the call has returned")
            return
        }
        scriptWatch.withLock { watch in
            watch?.stop()
            watch = nil
        }
        #if RemoteFlags
        remoteTweaks.close()
        #endif
        application.resignCurrent()
        #if Control
        // Of two threads closing together, one detaches.
        controlPlane?.stopServing(of: self) {
            // A change another process is making with this host's part prepared ends first, so the
            // host reloads and runs its did-change hooks before it goes.
            do {
                try containers.waitForChangesToEnd()
            } catch {
                logger.error("could not catch up with the home before closing: \(error)")
            }
        }
        #else
        presence?.leave()
        #endif
        let flushed = lock.withLock { () -> Bool in
            guard !closing.withLock({ $0 }) else { return false }
            // A request the control server has not finished yet (from async code close() does not wait
            // for the server) is refused from here on rather than change what is being saved.
            closing.withLock { $0 = true }
            do {
                try application.flush()
            } catch {
                // A failure whoever called saveStores() has reported already is not logged twice.
                let failure = "\(error)"
                if reportedSaveFailure.withLock({ $0 }) != failure { logger.error("could not save preferences: \(failure)") }
            }
            return true
        }
        guard flushed else { return }
        #if Control
        // Outside the lock: the other hosts answer under their own locks, and one of them may be
        // closing too, waiting for this host's answer while it holds its lock.
        controlPlane?.flushAnnouncements()
        #endif
        // A reload under way ends first (the next finds the host closing and is refused), unless this
        // thread holds the host's lock, which that reload may be waiting for: it then finds the host
        // closed when it gets the lock, and takes nothing in.
        let waitsForReload = !lock.isHeldByCurrentThread
        if waitsForReload { reloading.lock() }
        defer { if waitsForReload { reloading.unlock() } }
        scriptWatch.withLock { watch in
            watch?.stop()
            watch = nil
        }
        lock.withLock {
            tweaks.removeProvidersWithoutNotification()
            tweaks.decryptor = nil
            tweaks.cipher = nil
            // No call into Lua runs: this thread holds the lock and is not inside one (checked above).
            let (current, retired) = generations.withLock { ($0.current, $0.retired) }
            for generation in retired { generation.close() }
            current?.close()
        }
    }

    /// Adopts what other processes wrote to the active container's stores since this host read them:
    /// preferences (tweak overrides, stored state) are merged with their file, file and secure state
    /// read anew, and the tweak cache dropped; change observers and `on_change` handlers hear of the
    /// differences. Attached hosts do it by themselves when another process announces its writes.
    public func synchronizeStores() throws {
        try application.synchronizeWithDisk()
        tweaks.resetCache()
    }

    /// Runs the Lua file at `path` and returns its results.
    ///
    /// - Throws: `HostError/Code/scriptNotReadable` when the file cannot be read;
    ///   a `LuaError` of kind `syntax` when it does not compile, of another kind when it fails.
    @discardableResult
    public func runScript(atPath path: String) throws -> [LuaValue] {
        try lock.withLock {
            let chunk = try compileScript(atPath: path)
            logger.debug("running script", metadata: ["path": "\(path)"])
            return try chunk.call()
        }
    }

    /// Compiles the Lua file at `path` without running it.
    @discardableResult
    package func compileScript(atPath path: String) throws -> LuaFunctionRef {
        try lock.withLock {
            try compileScript(atPath: path, in: lua)
        }
    }

    /// Compiles the Lua file at `path` in `state`, noting its folder among the project folders.
    func compileScript(atPath path: String, in state: LuaState) throws -> LuaFunctionRef {
        let chunk = try ScriptFile.compile(atPath: path, in: state)
        if let folder = ScriptFile.projectFolder(ofScriptAt: path) {
            scriptFolders.withLock { folders in
                if !folders.contains(folder) { folders.append(folder) }
            }
        }
        return chunk
    }

    /// Runs Lua source text (chunk name `=name`) and returns its results.
    @discardableResult
    public func execute(_ source: String, name: String = "chunk") throws -> [LuaValue] {
        try lock.withLock { try lua.execute(source, chunkName: "=" + name) }
    }

    /// The checks of ``HostConfiguration/permissions`` for host functions (called under the lock): the
    /// project folders are the script roots and the folders of the script files the host has run.
    var permissionGate: PermissionGate {
        PermissionGate(
            permissions: configuration.permissions, projectFolders: configuration.lua.scriptRoots + scriptFolders.withLock { $0 },
            scriptPathBase: configuration.scriptPathBase?.path)
    }

    /// The host modules, made for `generation`.
    func makeModules(for generation: ScriptGeneration) -> [LuaModule] {
        [
            ContainerModule.make(host: self, generation: generation), TweakModule.make(host: self, generation: generation),
            StateModule.make(host: self, generation: generation), DependencyModule.make(host: self, generation: generation),
            CryptoModule.make(),
        ]
    }

    /// Throws ``HostError/Code/scriptNotReadable`` unless `path` can be read as a script
    /// (see ``ScriptFile``).
    package static func checkReadable(_ path: String) throws {
        try ScriptFile.checkReadable(path)
    }

    static func prepareHome(_ home: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: home.path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw HostError.homeUnusable(path: home.path, reason: "it is a file") }
            return
        }
        do {
            // The home holds the stores and the bookkeeping: its user's alone, whatever the umask.
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.path)
        } catch {
            throw HostError.homeUnusable(path: home.path, reason: FileErrorReason.describe(error))
        }
    }
}
