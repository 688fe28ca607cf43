import Hummingbird

/// Answers a request whose path the router serves under other methods only — `TRACE /v1/containers`,
/// `PUT /v1/containers/reset` — with 405 `method_not_allowed` and an `Allow` header listing the methods
/// it does take, where the router alone would answer 404 as for a path it does not have.
///
/// ``ControlRoutes/register(on:host:eventStreams:)`` adds it after its routes, where Hummingbird applies
/// it to the router's "not found" answer (and to routes added later), so that both servers of the
/// control API — a host's socket and the panel — answer alike. It knows the routes registered before
/// it: the control API's, and whatever the router had already.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routes it answers for.
    let table: RouteTable<Context>

    /// A middleware answering for the routes `router` has when ``RouteTable/take()`` is first called.
    init(router: Router<Context>) {
        table = RouteTable(router)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound && !(error is ControlError) {
            let allowed = methods(servingPath: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            let names = allowed.map(\.rawValue).sorted()
            var response = ControlResponse.error(ControlError(
                .methodNotAllowed,
                "\(request.method) is not an operation of \(request.uri.path); it takes \(names.joined(separator: ", "))"))
            response.headers[.allow] = names.joined(separator: ", ")
            return response
        }
    }

    /// The methods of the path template that serves `path` (a `{parameter}` or `*` matches any one
    /// segment, `**` the rest): of those that match, the one the router picks, whose segments are
    /// literal the furthest (`/v1/containers/reset` rather than `/v1/containers/{id}`).
    private func methods(servingPath path: String) -> Set<HTTPRequest.Method> {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var best: [Bool]?
        var methods: Set<HTTPRequest.Method> = []
        for route in table.take() where Self.template(route.template, matches: segments) {
            let literal = route.template.map { !$0.hasPrefix("{") && !$0.hasPrefix("*") }
            if let current = best, current != literal {
                guard current.lexicographicallyPrecedes(literal, by: { !$0 && $1 }) else { continue }
                methods = []
            }
            best = literal
            methods.insert(route.method)
        }
        return methods
    }

    private static func template(_ template: [String], matches segments: [Substring]) -> Bool {
        for (index, part) in template.enumerated() {
            if part == "**" { return true }
            guard index < segments.count else { return false }
            if part == "*" || (part.hasPrefix("{") && part.hasSuffix("}")) { continue }
            if part != segments[index] { return false }
        }
        return template.count == segments.count
    }
}
