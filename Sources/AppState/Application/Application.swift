public import Foundation
public import Logging
public import Preferences
import Locking

/// The state and dependencies of an application, living in the active container of its home so that a
/// container switch swaps all of it.
///
/// State is declared under explicit string keys — the same key always names the same state, wherever it
/// is declared — as one of four kinds:
///
/// | kind | declared with | lives in |
/// |---|---|---|
/// | memory | ``state(_:initial:)`` | this process |
/// | stored | ``storedState(_:initial:)`` | the container's preferences, `Library/Preferences/<appID>.plist` |
/// | file | ``fileState(_:initial:)`` | `Library/Application Support/EnvScript/State/<key>.json` |
/// | secure | ``secureState(_:initial:)`` | `Library/Application Support/EnvScript/SecureState/<key>.sealed`, AES-GCM under a key outside the home |
///
/// The home is always the live app home: containers are moved underneath it, so the runtime calls
/// ``prepareForSwitch()`` before a switch and ``containerDidSwitch(to:)`` after it, and the same
/// `Application` then serves the new container.
///
/// All methods are thread-safe.
public final class Application: Sendable {
    /// The live app home the state lives in.
    public let home: URL
    /// The application's identifier, which names its preferences file.
    public let appID: String
    /// The container's preferences, which hold stored state (and may be shared with other users of the
    /// same file, such as tweak overrides).
    package let preferences: PreferencesStore
    /// The application's dependencies; container-scoped ones are dropped by ``containerDidSwitch(to:)``.
    public let dependencies: DependencyContainer
    /// The folder of file state: `<home>/Library/Application Support/EnvScript/State`.
    package let fileStateFolder: URL
    /// The folder of secure state: `<home>/Library/Application Support/EnvScript/SecureState`.
    package let secureStateFolder: URL

    struct Registry {
        var slots: [String: any StateSlot] = [:]
        /// Keys in the order they were declared.
        var keys: [String] = []
        /// The container whose memory state is live, when the runtime names containers.
        var containerID: UUID?
        /// Memory state set in containers that are not active, by container.
        var keptMemoryState: [UUID: [String: any Sendable]] = [:]
    }

    let registry: Locked<Registry>
    let secureKeys: SecureKeyStore
    let keyObservers = ObserverList<StateKeyChange>()
    /// Where failures of non-throwing access go (``observeFailures(_:)``).
    let failures: StateFailureReporter

    /// Creates the application state of `appID` in the live app home `home`. Nothing is read until used.
    ///
    /// - Parameters:
    ///   - home: the live app home: the folder the active container's files are in.
    ///   - appID: the application's identifier, which names its preferences file.
    ///   - secureKey: where the key of secure state comes from; without one, secure state fails with
    ///     ``AppStateError/Code/secureKeyMissing``.
    ///   - dependencies: the dependency container to switch along with the state.
    ///   - containerID: the container active now, if the runtime names containers; see
    ///     ``containerDidSwitch(to:)`` for what it changes.
    ///   - logger: where failures of non-throwing reads and writes are logged (see ``StateFailure``).
    public convenience init(
        home: URL, appID: String, secureKey: SecureKeySource? = nil,
        dependencies: DependencyContainer = DependencyContainer(), containerID: UUID? = nil,
        logger: Logger = Logger(label: "envscript.state")
    ) {
        self.init(
            home: home, appID: appID, preferences: nil, secureKey: secureKey, dependencies: dependencies,
            containerID: containerID, logger: logger)
    }

    /// Creates the application state over `preferences`, the store other parts of the runtime use for
    /// the same file, so that one cache serves them all (nil: a new store over
    /// `<home>/Library/Preferences/<appID>.plist`).
    package init(
        home: URL, appID: String, preferences: PreferencesStore?, secureKey: SecureKeySource? = nil,
        dependencies: DependencyContainer = DependencyContainer(), containerID: UUID? = nil,
        logger: Logger = Logger(label: "envscript.state")
    ) {
        self.failures = StateFailureReporter(logger: logger)
        self.home = home
        self.appID = appID
        self.preferences = preferences ?? PreferencesStore(home: home, appID: appID)
        self.dependencies = dependencies
        let support = home.appendingPathComponent("Library/Application Support/EnvScript", isDirectory: true)
        self.fileStateFolder = support.appendingPathComponent("State", isDirectory: true)
        self.secureStateFolder = support.appendingPathComponent("SecureState", isDirectory: true)
        self.secureKeys = SecureKeyStore(source: secureKey, home: home)
        self.registry = Locked(Registry(containerID: containerID))
    }

    /// Loads (creating when missing) the secure key now, so a host can report a bad key file at start-up
    /// rather than on first use of secure state.
    ///
    /// - Throws: ``AppStateError/Code/secureKeyMissing`` when no key source was given, and the key
    ///   file's errors.
    package func loadSecureKey() throws {
        _ = try secureKeys.key(forState: "(any)")
    }

    /// Calls `handler` with each failure of a non-throwing read or write of this application's state
    /// (``StateHandle/value``, the property wrappers), after it was logged. Keep the returned observation:
    /// cancelling or dropping it removes the observer.
    public func observeFailures(_ handler: @escaping @Sendable (StateFailure) -> Void) -> StateObservation {
        failures.observers.add(handler)
    }

    /// The slot of `key`, or nil.
    func slot(forKey key: String) -> (any StateSlot)? {
        registry.withLock { $0.slots[key] }
    }

    /// Every slot, in the order of declaration.
    func allSlots() -> [any StateSlot] {
        registry.withLock { registry in registry.keys.compactMap { registry.slots[$0] } }
    }
}
