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
    ///   `HostError/Code/reloadRefused` when the host ran no start-up script or the call comes from
    ///   inside a call into Lua; `HostError/Code/closed`.
    @discardableResult
    public func reloadStartupScripts() throws -> ScriptReloadReport {
        let began = ContinuousClock.now
        reloading.lock()
        defer { reloading.unlock() }
        let (inCall, open) = lock.withLock { (lua.isInCall, lua.isOpen && !closing.withLock { $0 }) }
        guard open else { throw HostError.closed }
        if inCall || isReloading {
            throw HostError.reloadRefused(reason: "it was asked for from inside a call into Lua (a script, a hook, a Lua provider); ask once the call has returned")
        }
        let scripts = startupScripts.withLock { $0 }
        if scripts.isEmpty {
            throw HostError.reloadRefused(reason: "this host has run no start-up script (runStartupScript(atPath:)); there is nothing to reload")
        }
        let current = currentGeneration
        let next = try ScriptGeneration(host: self, predecessor: current)
        isReloading = true
        defer { isReloading = false }
        do {
            try next.registerModules { makeModules(for: $0) }
            for path in scripts {
                logger.debug("reloading start-up script", metadata: ["path": "\(path)"])
                _ = try compileScript(atPath: path, in: next.lua).call()
            }
            // Closed by the scripts themselves (a Swift function they called), the host takes nothing in.
            if closing.withLock({ $0 }) { throw HostError.closed }
        } catch {
            lock.withLock { next.close() }
            logger.error("the start-up scripts were not reloaded, and those running go on: \(error)")
            throw error
        }
        let retired: ScriptGeneration?
        do {
            retired = try containers.betweenChanges("reload the start-up scripts") { () -> ScriptGeneration? in
                next.takeOver(from: current)
                return generations.withLock { generations in
                    defer {
                        generations.retired = generations.current
                        generations.current = next
                    }
                    return generations.retired
                }
            }
        } catch {
            // No swap (a Swift hook asked for the reload in the middle of a switch, say): nothing changed.
            lock.withLock { next.close() }
            logger.error("the start-up scripts were not reloaded, and those running go on: \(error)")
            throw error
        }
        // The replaced scripts' state closes once no lookup begun before the swap can still call into it
        // (their Lua providers, their decryptor); one still under way after a while leaves it to the
        // next reload, or to closing.
        if tweaks.waitForEarlierSearches(timeout: .seconds(5)) {
            let replaced = generations.withLock { generations -> ScriptGeneration? in
                defer { generations.retired = nil }
                return generations.retired
            }
            lock.withLock {
                retired?.close()
                replaced?.close()
            }
        } else {
            lock.withLock { retired?.close() }
            logger.warning("lookups begun before the reload are still under way; the replaced scripts' state stays open until the next reload")
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

    /// With ``HostConfiguration/watchesStartupScripts``, watches the start-up scripts and the files the
    /// scripts in force loaded (`require`), from now on, and reloads when one changes.
    func watchStartupScripts() {
        guard configuration.watchesStartupScripts, !closing.withLock({ $0 }) else { return }
        let loaded = lock.withLock { lua.isOpen ? lua.loadedFiles : [] }
        let paths = startupScripts.withLock { $0 } + loaded
        let watch = FileChangePoller(paths: paths, interval: .milliseconds(500)) { [weak self] in
            guard let self else { return }
            // A failure is logged by the reload; the scripts in force go on until the next change. A
            // success watches anew, the files the new scripts loaded included.
            _ = try? reloadStartupScripts()
        }
        let previous = scriptWatch.withLock { current in
            defer { current = watch }
            return current
        }
        previous?.stop()
        if closing.withLock({ $0 }) { watch.stop() }
    }
}
