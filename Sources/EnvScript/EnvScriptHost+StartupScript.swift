import Containers
import Foundation
import Logging
public import LuaBridge

extension EnvScriptHost {
    /// Runs the application's start-up script at `path`, as ``runScript(atPath:)`` does, then records
    /// its absolute path in the home beside the application's identifier, so that `envscript` run from
    /// another folder with `--home` loads the same script — its tweak stack, its hooks — instead of
    /// seeing only the overrides.
    ///
    /// ``reloadStartupScripts()`` runs it again, with the other start-up scripts, in their order.
    ///
    /// The script is recorded only when it ran and when this host records the identifier
    /// (`recordsAppID`); an application's host (``HostConfiguration/role``
    /// `.application`) replaces a script recorded before (its project moved), a tool's only fills in a
    /// home that has none. A record that cannot be written is logged, not thrown: the script ran.
    @discardableResult
    public func runStartupScript(atPath path: String) throws -> [LuaValue] {
        // Not in the middle of a reload, whose swap would drop what this script sets up (unless this
        // thread holds the host's lock, which that reload may be waiting for).
        let waitsForReload = !lock.isHeldByCurrentThread
        if waitsForReload { reloading.lock() }
        defer { if waitsForReload { reloading.unlock() } }
        // Noted even when it fails: once mended, a reload runs it.
        noteStartupScript(path)
        defer { watchStartupScripts() }
        let results = try runScript(atPath: path)
        guard configuration.recordsAppID else { return results }
        let absolute = PermissionGate.resolved(path).path
        do {
            try containers.recordStartupScript(absolute, replacing: configuration.role == .application)
        } catch {
            logger.warning("could not record the start-up script \(absolute) in the home: \(error)")
        }
        return results
    }
}
