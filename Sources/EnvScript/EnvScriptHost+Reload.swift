import Foundation
import Logging
public import EnvScriptOperations
import LuaBridge
import Tweaks

extension EnvScriptHost {
    /// Runs the start-up scripts again, in a new Lua state, and puts what they set up in force in place of
    /// what the running ones did — all of it or, when one fails, none of it.
    ///
    /// The scripts are those run so far with ``runStartupScript(atPath:)``, read anew from their files,
    /// after ``HostConfiguration/prepareLua``. While they run, the scripts in force go on serving every
    /// thread; once all of them have run, the host swaps in one step, between two changes of the home,
    /// its provider stack, decryptor, cipher, hooks, Lua providers, `tweak.on_change` handlers and the
    /// dependencies scripts registered. A lookup sees the old set or the new one, never part of each; a
    /// switch under way ends under the hooks it began with. The observers of flags hear of the change.
    ///
    /// What the user has stays: state values (a key declared again keeps its value), overrides,
    /// containers and the kept copies of remote flags; a remote provider declared as before is kept, not
    /// fetched again. What the scripts write as they run (`tweak.set`, `state.set`) is written, as at
    /// start-up. Values Lua dependencies made are dropped: the new scripts' factories make them again.
    ///
    /// - Returns: what the reloaded scripts put in force.
    /// - Throws: the error of the first script that fails (a `LuaError` naming its file and line,
    ///   `HostError/Code/scriptNotReadable`, a refused permission), and then nothing changed;
    ///   `HostError/Code/reloadRefused` when the host ran no start-up script, or the call comes from a
    ///   thread holding the host's lock (a script, a hook, a Lua provider) or from the scripts being
    ///   reloaded; `ContainerError/Code/reentrantOperation` from a did-change hook; `HostError/Code/closed`.
    @discardableResult
    public func reloadStartupScripts() throws -> ScriptReloadReport {
        let began = ContinuousClock.now
        // Refused before waiting for another reload, which may be waiting for the lock this thread holds.
        if lock.isHeldByCurrentThread {
            throw HostError.reloadRefused(reason: "it was asked for while this thread holds the host's lock (from a script, a hook, a Lua provider, or code inside host.lock.withLock); ask once that has returned")
        }
        reloading.lock()
        defer { reloading.unlock() }
        // The lock is recursive: the scripts being reloaded asking for a reload find it under way.
        if isReloading {
            throw HostError.reloadRefused(reason: "it was asked for by the start-up scripts being reloaded")
        }
        guard lock.withLock({ lua.isOpen && !closing.withLock { $0 } }) else { throw HostError.closed }
        let scripts = startupScripts.withLock { $0 }
        if scripts.isEmpty {
            throw HostError.reloadRefused(reason: "this host has run no start-up script (runStartupScript(atPath:)); there is nothing to reload")
        }
        let current = currentGeneration
        let next = try ScriptGeneration(host: self, predecessor: current)
        isReloading = true
        defer { isReloading = false }
        var swapped = false
        do {
            try next.registerModules { makeModules(for: $0) }
            for path in scripts {
                logger.debug("reloading start-up script", metadata: ["path": "\(path)"])
                _ = try compileScript(atPath: path, in: next.lua).call()
            }
            try containers.betweenChanges("reload the start-up scripts") {
                // Closed meanwhile (by another thread, or by the scripts themselves): nothing is taken in.
                if closing.withLock({ $0 }) { throw HostError.closed }
                next.takeOver(from: current)
                generations.withLock { generations in
                    generations.retired.append(current)
                    generations.current = next
                }
                swapped = true
            }
        } catch let error where !swapped {
            lock.withLock { next.close() }
            logger.error("the start-up scripts were not reloaded, and those running go on: \(error)")
            // A module the failing scripts required may be what gets mended: it is watched too.
            watchStartupScripts(adding: lock.withLock { next.lua.loadedFiles })
            throw error
        } catch {
            // After the swap (the home's lock could not be let go cleanly, say): the new scripts are in force.
            logger.error("the start-up scripts were reloaded, then: \(error)")
        }
        // Observers (and the new `tweak.on_change` handlers) hear of the new stack once the home's lock is
        // let go, so that a handler may change containers.
        tweaks.announceStackChange()
        // The replaced scripts' states close once no lookup begun before the swap can still call into
        // them (their Lua providers, their decryptor); while one is still under way after a while, they
        // stay open until a later reload, or closing.
        if tweaks.waitForEarlierSearches(timeout: .seconds(5)) {
            let retired = generations.withLock { generations -> [ScriptGeneration] in
                defer { generations.retired = [] }
                return generations.retired
            }
            lock.withLock {
                for generation in retired { generation.close() }
            }
        } else {
            logger.warning("lookups begun before the reload are still under way; the replaced scripts' state stays open until a later reload")
        }
        watchStartupScripts()
        let summary = next.summary
        logger.debug("start-up scripts reloaded", metadata: ["scripts": "\(scripts.count)"])
        return ScriptReloadReport(
            scripts: scripts, providers: tweaks.providers.map(\.name), registrations: summary.registrations,
            remoteProviders: summary.remoteProviders, keptRemoteProviders: summary.reusedRemoteProviders,
            duration: ContinuousClock.now - began)
    }

    /// Notes `path` as a start-up script, which ``reloadStartupScripts()`` runs again.
    func noteStartupScript(_ path: String) {
        let absolute = PermissionGate.resolved(path).path
        startupScripts.withLock { scripts in
            if !scripts.contains(absolute) { scripts.append(absolute) }
        }
    }

    /// With ``HostConfiguration/watchesStartupScripts``, watches the start-up scripts, the files the
    /// scripts in force loaded (`require`) and `extra` files, from now on, and reloads when one changes.
    func watchStartupScripts(adding extra: [String] = []) {
        guard configuration.watchesStartupScripts, !closing.withLock({ $0 }) else { return }
        let loaded = lock.withLock { lua.isOpen ? lua.loadedFiles : [] }
        let paths = startupScripts.withLock { $0 } + loaded + extra
        let watch = FileChangePoller(paths: paths, interval: .milliseconds(500)) { [weak self] in
            guard let self else { return }
            // On a queue of its own: the pollers' queue (flag files') is not held up by scripts.
            Self.reloadQueue.async { [weak self] in
                // A failure is logged by the reload; the scripts in force go on until the next change. A
                // success watches anew, the files the new scripts loaded included.
                _ = try? self?.reloadStartupScripts()
            }
        }
        let previous = scriptWatch.withLock { current in
            defer { current = watch }
            return current
        }
        previous?.stop()
        // Closed meanwhile: the host's close may have stopped the watch before this one was set.
        if closing.withLock({ $0 }) {
            scriptWatch.withLock { $0?.stop() }
        }
    }

    /// Where watched hosts reload, one reload at a time.
    private static let reloadQueue = DispatchQueue(label: "envscript.host.reload", qos: .utility)
}
