import Hummingbird
import Locking

/// The path templates and methods of a router, taken from it once (`router.routes` costs most of a
/// millisecond the first time in a process): at once, or — for a host's own control socket — by the
/// thread that made the server, after the host has what it waits for.
///
/// Until then it holds the router, which holds it through the middleware that answers from it; taking
/// the routes lets go of the router, so the router is not kept alive by its own middleware.
final class RouteTable<Context: RequestContext>: @unchecked Sendable {
    /// A route: its path template's segments and its method.
    typealias Route = (template: [String], method: HTTPRequest.Method)

    private enum State {
        case pending(Router<Context>)
        case taken([Route])
    }

    // Unchecked Sendable: the router is only read, under this lock, once its routes are all added.
    private let state: Locked<State>

    init(_ router: Router<Context>) {
        state = Locked(.pending(router))
    }

    /// The routes, taken from the router the first time.
    @discardableResult
    func take() -> [Route] {
        state.withLock { state in
            switch state {
            case .taken(let routes):
                return routes
            case .pending(let router):
                let routes = router.routes.map { (template: $0.path.components.map(\.description), method: $0.method) }
                state = .taken(routes)
                return routes
            }
        }
    }
}
