import EnvScriptOperations
import Hummingbird

/// Serves ``OFREPListener``: the OFREP routes of a host, behind ``OFREPListenerGuard``, on TCP.
enum OFREPListenerServer {
    /// Starts serving `listener` for the host `host` refers to and returns once it listens.
    ///
    /// - Throws: ``HostError/Code/ofrepListenerFailed`` when the listener is not valid or
    ///   its address cannot be bound.
    static func start(_ listener: OFREPListener, host: ControlHost) throws(HostError) -> BackgroundServer {
        try listener.validate()
        let token = AccessToken(listener.token)
        let router = Router()
        router.add(middleware: OFREPListenerGuard(token: token, allowedOrigins: listener.allowedOrigins))
        ControlRoutes.registerOFREPRoutes(on: router, host: host)
        do {
            return try BackgroundServer(
                router: router, address: .hostname(listener.address, port: listener.port), serverName: "envscript",
                limits: listener.limits, showsToken: { token.isBearer(of: $0) })
        } catch {
            throw HostError.ofrepListenerFailed(address: listener.authority, reason: error.reason)
        }
    }
}
