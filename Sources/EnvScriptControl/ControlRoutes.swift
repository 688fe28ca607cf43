package import Hummingbird

/// The control API of a running host: HTTP and JSON under `/v1`, meant to be served on the Unix socket
/// in the home's bookkeeping folder, so that the `envscript` command, a QA script or `curl
/// --unix-socket` can drive a running application.
///
/// The routes — containers, tweaks, state and a stream of change events — are described operation by
/// operation in `openapi/envscript-control.json` at the top of the repository. Every answer is JSON
/// (the event stream is `text/event-stream` with JSON data lines); every error is
/// `{"error": {"code", "message"}}`.
///
/// The handlers never block a NIO event loop or the Swift concurrency pool: whatever touches the host
/// runs on a queue of its own, under the host's lock.
package enum ControlRoutes {
    /// The version of the API, the `v1` of its paths.
    package static let version = 1

    /// Adds the container, tweak, state and event routes for `host` to `router`, and the answer 405 to
    /// a method a path does not take.
    ///
    /// The routes hold the host weakly: they do not keep it alive, and answer `failed` once it is gone
    /// or closed. Call once per router. Give a server of its own an `eventStreams` group to end its
    /// event streams alone when it stops (``finishEventStreams(in:)``).
    package static func register<Context: RequestContext>(
        on router: Router<Context>, host: any ControlledHost, eventStreams: EventStreamGroup? = nil
    ) {
        register(on: router, host: ControlHost(host, eventStreams: eventStreams)).take()
    }

    /// Adds the routes for the host `host` refers to, which may be set later (see ``HostReference``).
    ///
    /// - Returns: the table the answer 405 is made from; `take()` it once the router has all its routes.
    static func register<Context: RequestContext>(on router: Router<Context>, host: ControlHost) -> RouteTable<Context> {
        registerContainerRoutes(on: router, host: host)
        #if Sharing
        registerSharingRoutes(on: router, host: host)
        #endif
        registerTweakRoutes(on: router, host: host)
        registerOFREPRoutes(on: router, host: host)
        registerStateRoutes(on: router, host: host)
        registerEventRoutes(on: router, host: host)
        registerReloadRoutes(on: router, host: host)
        registerParticipationRoutes(on: router, host: host)
        let methodNotAllowed = MethodNotAllowedMiddleware(router: router)
        router.add(middleware: methodNotAllowed)
        return methodNotAllowed.table
    }
}
