import Containers
import Foundation
import Locking
import LuaBridge
import Tweaks

/// One run of a host's start-up scripts and all it set up: a Lua state of its own with the host
/// modules in it, and what its scripts put in force — the provider stack, the decryptor and cipher,
/// excluded files, hooks, change handlers, dependencies and remote providers.
///
/// A host opens with one, whose scripts take effect as they run. A reload runs the scripts again in a
/// new generation *set up aside* (``isAside``): what they register is recorded, not installed, so the
/// generation in force goes on serving every thread; only once all of them ran does
/// ``takeOver(from:)`` swap it in, in one step under the host's lock. A generation given up (a failed
/// reload, or the one replaced) is closed: its registrations undone, its state closed.
final class ScriptGeneration: @unchecked Sendable {
    /// What a generation's scripts set (nil: they did not), applied when it takes over.
    struct Settings {
        var stack: [any TweakProvider]?
        var decryptor: TweakDecryptor??
        var cipher: TweakCipher??
        var excludedFiles: [String]?
    }

    /// A remote provider a script declared: how to start it and how to stop it (the `RemoteFlags` trait
    /// makes them; a generation knows them only by these).
    struct RemoteProvider {
        let provider: any TweakProvider
        let start: @Sendable () -> Void
        let close: @Sendable () -> Void
    }

    private struct Record {
        var settings = Settings()
        /// Everything registered with the engines, by identity, in the order the scripts registered it
        /// (hooks run in that order, and of two dependencies of one name the later wins).
        var registrations: [ObjectIdentifier: (order: Int, registration: ScriptRegistration)] = [:]
        var nextOrder = 0
        /// The registration made under a key (`dependency <name>`): another under the same key replaces it.
        var keyed: [String: ObjectIdentifier] = [:]
        /// Remote providers by their declaration (see ``remoteProvider(declaredAs:make:)``).
        var remoteProviders: [String: RemoteProvider] = [:]
        /// The declarations whose providers this generation started or starts (the new ones).
        var newRemoteProviders: Set<String> = []
        /// The declarations whose providers this generation stops when it closes: the ones it made or
        /// took over, less those a successor took over in turn.
        var ownedRemoteProviders: Set<String> = []
        /// The Lua type of each state key's initial value, as declared by this generation's scripts.
        var stateTypes: [String: String] = [:]
        var isAside: Bool
        /// Replaced by a reload: what its scripts still call (a handler of theirs under way) changes nothing.
        var isRetired = false
        var isClosed = false

        /// The registrations in the order they were made.
        var orderedRegistrations: [ScriptRegistration] {
            registrations.values.sorted { $0.order < $1.order }.map(\.registration)
        }
    }

    /// The Lua state the generation's scripts run in.
    let lua: LuaState
    /// The host modules registered in ``lua``, in order.
    private(set) var modules: [LuaModule] = []
    private unowned let host: EnvScriptHost
    /// The generation in force while this one is set up aside (nil for the first).
    private weak var predecessor: ScriptGeneration?
    private let record: Locked<Record>

    /// A generation over a new state with the configured limits; `aside` when it is made for a reload
    /// while `predecessor` serves.
    init(host: EnvScriptHost, predecessor: ScriptGeneration?) throws {
        self.host = host
        self.predecessor = predecessor
        var luaOptions = host.configuration.lua
        // Lua files in the folders scripts may read load as libraries (`require`, `loadfile`).
        luaOptions.libraryRoots += host.configuration.permissions.readableFolders.map(\.path)
        lua = try LuaState(options: luaOptions)
        record = Locked(Record(isAside: predecessor != nil))
    }

    /// Defines the host's object types and registers the host modules (made for this generation) in the
    /// state, as globals too, then runs the configuration's ``HostConfiguration/prepareLua``.
    func registerModules(_ make: (ScriptGeneration) -> [LuaModule]) throws {
        LuaHandle.define(in: lua)
        TweakProviderHandle.define(in: lua)
        TweakCipherHandle.define(in: lua)
        modules = make(self)
        for module in modules {
            lua.register(module)
            // Host modules are globals too, like the standard libraries; `require` returns the same table.
            try lua.execute("\(module.name) = require('\(module.name)')", chunkName: "=host")
        }
        try host.configuration.prepareLua?(lua)
    }

    /// Whether the generation is being set up for a reload, its registrations waiting.
    var isAside: Bool { record.withLock { $0.isAside } }

    /// The wall-clock limit of ``HostConfiguration/hookTimeout`` for a hook described as `what`.
    func hookTimeLimit(_ what: String) -> LuaCallback.TimeLimit? {
        host.configuration.hookTimeout.map { LuaCallback.TimeLimit(state: lua, duration: $0, what: what) }
    }

    // MARK: What scripts set

    /// Records a setting; in force at once unless the generation is set up aside.
    ///
    /// - Throws: once a reload replaced the generation (a handler of its scripts still running).
    func set(_ change: (inout Settings) -> Void) throws {
        let aside = try record.withLock { record -> Bool in
            try Self.checkNotRetired(record)
            change(&record.settings)
            return record.isAside
        }
        guard !aside else { return }
        // Only what this call set is applied: the rest is in force already.
        var only = Settings()
        change(&only)
        let tweaks = host.tweaks
        if let stack = only.stack { tweaks.setProviders(stack) }
        if let decryptor = only.decryptor { tweaks.decryptor = decryptor }
        if let cipher = only.cipher { tweaks.cipher = cipher }
        if let files = only.excludedFiles { host.containers.customExcludeFiles = files }
    }

    /// Registers what `install` installs (returning how to undo it), by `function` for its error, and
    /// returns the handle Lua removes it with. What it keeps is charged to the script's memory limit
    /// (``KeptValueLedger/registrationSize``) until then; past the limit nothing is registered.
    ///
    /// With a `key`, the registration replaces one made under the same key before (in this generation):
    /// the engine's own registration replaces the earlier one (`dependency.register` of a name again),
    /// and the earlier one's charge is given back rather than piling up.
    func register(
        by function: String, key: String? = nil, install: @escaping @Sendable () -> @Sendable () -> Void
    ) throws -> LuaHandle {
        let bytes = KeptValueLedger.registrationSize
        let registration = ScriptRegistration(install: install)
        let id = ObjectIdentifier(registration)
        let (aside, replaced) = try record.withLock { record -> (Bool, Bool) in
            try Self.checkNotRetired(record)
            var replaced = false
            if let key, let earlier = record.keyed.updateValue(id, forKey: key) {
                replaced = record.registrations.removeValue(forKey: earlier) != nil
            }
            record.registrations[id] = (record.nextOrder, registration)
            record.nextOrder += 1
            return (record.isAside, replaced)
        }
        do {
            if !replaced { try lua.keep(bytes, insteadOf: 0, by: function) }
        } catch {
            record.withLock { _ = $0.registrations.removeValue(forKey: id) }
            throw error
        }
        if !aside { registration.install() }
        let lock = host.lock
        return LuaHandle { [weak self] in
            // Removed from Lua (under the lock already) or from Swift on any thread.
            guard let self, let removed = record.withLock({ $0.registrations.removeValue(forKey: id) }) else { return }
            removed.registration.remove()
            lock.withLock { try? lua.keep(0, insteadOf: bytes, by: function) }
        }
    }

    /// The remote provider declared as `declaration` (its kind and every option): the predecessor's
    /// when it declared the same — so a reload does not fetch it again — else a new one from `make`,
    /// started at once unless the generation is set up aside (then when it takes over).
    func remoteProvider(declaredAs declaration: String, make: () throws -> RemoteProvider) throws -> any TweakProvider {
        try record.withLock { try Self.checkNotRetired($0) }
        if let kept = predecessor?.record.withLock({ $0.remoteProviders[declaration] }), isAside {
            // Taken over: this generation stops it when it closes, unless a successor takes it in turn.
            record.withLock { record in
                record.remoteProviders[declaration] = kept
                record.ownedRemoteProviders.insert(declaration)
            }
            return kept.provider
        }
        let made = try make()
        let aside = record.withLock { record -> Bool in
            record.remoteProviders[declaration] = made
            record.newRemoteProviders.insert(declaration)
            record.ownedRemoteProviders.insert(declaration)
            return record.isAside
        }
        if !aside { made.start() }
        return made.provider
    }

    /// Notes that the scripts declared state `key` with `initial`; a reload refuses a key whose initial
    /// value is of another Lua type than the running scripts gave it (a number, then a string), which
    /// would leave the value it holds not fitting the new script. A nil initial value fits any.
    func declareState(_ key: String, initial: JSONValue, by function: String) throws {
        let type: String? = switch initial {
        case .null: nil
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array, .object: "a table"
        }
        if isAside, let type, let previous = predecessor?.record.withLock({ $0.stateTypes[key] }), previous != type {
            throw LuaScriptError(
                "\(function): the running scripts declare '\(key)' with \(previous), this one with \(type); a reload cannot change the type of a key, whose value it keeps: keep the type, or declare another key")
        }
        if let type { record.withLock { $0.stateTypes[key] = type } }
    }

    // MARK: Taking over

    /// Puts this generation, set up aside, in force instead of `predecessor`, in one step: its
    /// registrations in place of the predecessor's, then its settings (where `predecessor` set something
    /// this one does not, the host's defaults come back), then its new remote providers start. Call under the
    /// host's lock, with no change of the home under way.
    ///
    /// The stack changes without telling the observers: call ``TweakManager/announceStackChange()`` once
    /// the home's lock is let go, so that handlers may change containers.
    func takeOver(from predecessor: ScriptGeneration) {
        let (registrations, remote, keys) = record.withLock { record -> ([ScriptRegistration], [RemoteProvider], Set<String>) in
            record.isAside = false
            let started = record.newRemoteProviders.compactMap { record.remoteProviders[$0] }
            return (record.orderedRegistrations, started, Set(record.remoteProviders.keys))
        }
        let (previous, taken) = predecessor.record.withLock { record -> (Settings, [ScriptRegistration]) in
            // What its scripts still run (a handler under way) changes nothing from now on.
            record.isRetired = true
            record.ownedRemoteProviders.subtract(keys)
            return (record.settings, record.orderedRegistrations)
        }
        for registration in taken { registration.remove() }
        for registration in registrations { registration.install() }
        applySettings(replacing: previous)
        for provider in remote { provider.start() }
    }

    /// Throws when a reload replaced the generation.
    private static func checkNotRetired(_ record: Record) throws {
        if record.isRetired {
            throw LuaScriptError("the start-up scripts this code belongs to were replaced by a reload; it changes nothing any more")
        }
    }

    /// Puts this generation's settings in force in place of `previous`, the stack, decryptor and cipher
    /// in one step; a part `previous` set and this one does not falls back to the host's default.
    private func applySettings(replacing previous: Settings) {
        let settings = record.withLock { $0.settings }
        let tweaks = host.tweaks
        let current = tweaks.stack()
        let providers = settings.stack ?? (previous.stack != nil ? host.defaultProviders : current.providers)
        let decryptor = settings.decryptor ?? (previous.decryptor != nil ? nil : current.decryptor)
        let cipher = settings.cipher ?? (previous.cipher != nil ? nil : current.cipher)
        tweaks.replaceStack(providers: providers, decryptor: decryptor, cipher: cipher, notify: false)
        if let files = settings.excludedFiles ?? (previous.excludedFiles != nil ? [] : nil) {
            host.containers.customExcludeFiles = files
        }
    }

    // MARK: Closing

    /// Undoes the registrations, stops the remote providers it made that no successor took over, and
    /// closes the state. Call under the host's lock, from outside any call into Lua; again does nothing.
    func close() {
        let (registrations, remote) = record.withLock { record -> ([ScriptRegistration], [RemoteProvider]) in
            guard !record.isClosed else { return ([], []) }
            record.isClosed = true
            record.isRetired = true
            defer {
                record.registrations = [:]
                record.remoteProviders = [:]
                record.settings = Settings()
            }
            return (record.orderedRegistrations, record.ownedRemoteProviders.compactMap { record.remoteProviders[$0] })
        }
        for registration in registrations { registration.remove() }
        for provider in remote { provider.close() }
        try? lua.close()
    }

    /// A summary of what the generation's scripts put in force, for a reload's report.
    var summary: (providers: [String]?, registrations: Int, remoteProviders: Int, reusedRemoteProviders: Int) {
        record.withLock { record in
            (record.settings.stack?.map(\.name), record.registrations.count, record.remoteProviders.count,
             record.remoteProviders.count - record.newRemoteProviders.count)
        }
    }
}
