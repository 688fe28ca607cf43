import EnvScriptOperations
import Hummingbird

extension ControlRoutes {
    /// `POST /v1/reload`: the host runs its start-up scripts again and puts them in force whole (see
    /// `EnvScriptHost.reloadStartupScripts()`); 200 with the report. A script that fails answers 409
    /// `refused` with its error — file, line and message — and the scripts in force go on; a host that
    /// ran none, or cannot reload now, answers 409 `conflict`. The body is ignored.
    static func registerReloadRoutes<Context: RequestContext>(on router: Router<Context>, host: ControlHost) {
        router.post("/v1/reload") { _, _ in
            await ControlResponse.handling {
                do {
                    // Not under the host's lock: a reload takes the host's locks itself, in its own order,
                    // and lets lookups through while the new scripts run.
                    return try ControlResponse.json(try await host.runWithoutLock { try $0.reloadStartupScripts() })
                } catch let error as HostError where error.code == .reloadRefused {
                    throw ControlError(.conflict, error.message)
                } catch let error as ControlError {
                    throw error
                } catch let error as HostError where error.code == .closed {
                    throw ControlError.hostClosed
                } catch {
                    throw ControlError(.refused, "not reloaded, the scripts in force go on: \(ControlError(describing: error).message)")
                }
            }
        }
    }
}
