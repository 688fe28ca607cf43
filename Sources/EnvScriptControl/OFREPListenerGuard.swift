import Hummingbird

/// Lets in only what ``OFREPListener`` allows, before any handler runs: requests of allowed origins by
/// the CORS rules (``OFREPCrossOrigin``), others with the bearer token; 401 without it, 403 for a page
/// of another origin; a path the listener does not serve is 404 with OFREP's error body.
struct OFREPListenerGuard<Context: RequestContext>: RouterMiddleware {
    let token: AccessToken
    let allowedOrigins: AllowedOrigins

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await withoutActuallyEscaping(next) { next in
            // A path this listener does not serve is answered in OFREP's shape, and to a page of an allowed
            // origin readably (inside the CORS answer).
            let served: (Request, Context) async throws -> Response = { request, context in
                do {
                    return try await next(request, context)
                } catch let error as any HTTPResponseError where error.status == .notFound || error.status == .methodNotAllowed {
                    return OFREPAnswer.failure(
                        status: error.status,
                        "no operation \(request.method) \(request.uri.path) here: this listener serves OFREP only, POST /ofrep/v1/evaluate/flags and POST /ofrep/v1/evaluate/flags/{key}")
                }
            }
            return try await guarded(request, context: context, next: served)
        }
    }

    private func guarded(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let origin = request.headers[.origin] {
            guard allowedOrigins.allows(origin) else {
                return OFREPAnswer.failure(
                    status: .forbidden,
                    "pages of \(origin) may not call this listener; the application allows origins in HostConfiguration.ofrepListener's allowedOrigins")
            }
            return try await OFREPCrossOrigin.respond(to: request, context: context, origin: origin, token: token, next: next)
        }
        guard token.isBearer(of: request) else {
            return OFREPCrossOrigin.unauthorized(hint: "send the application's OFREP token as Authorization: Bearer <token>")
        }
        return try await next(request, context)
    }
}
