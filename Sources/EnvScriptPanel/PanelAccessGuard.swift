import EnvScript
import HTTPTypes
import Hummingbird

/// Lets in only the requests ``PanelAccess`` allows; answers every other one 403 with the reason,
/// before any handler runs, so a refused request changes nothing.
struct PanelAccessGuard<Context: RequestContext>: RouterMiddleware {
    let access: PanelAccess

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let authority = request.head.authority, access.allowedAuthorities.contains(authority.lowercased()) else {
            return Self.forbidden(request, "this panel answers only at the address it printed (the Host header names another)")
        }
        let origin = request.headers[.origin]
        if let origin, !access.isOwnOrigin(origin.lowercased()) {
            if request.uri.path.hasPrefix("/ofrep/"), access.allowedOrigins.allows(origin) {
                return try await OFREPCrossOrigin.respond(to: request, context: context, origin: origin, token: access.secret, next: next)
            }
            return Self.forbidden(request, "cross-site requests are refused (Origin \(origin)); a page of another origin may call the OFREP routes once envscript ui is started with --allow-origin ORIGIN")
        }
        if access.isToken(AccessToken.bearer(of: request)) { return try await next(request, context) }
        if access.isToken(request.cookies[PanelAccess.cookieName].map { Substring($0.value) }) {
            if !Self.isSafe(request.method) && origin == nil {
                return Self.forbidden(request, "a change made with the panel's cookie must name its Origin")
            }
            return try await next(request, context)
        }
        if request.method == .get, access.isToken(request.uri.queryParameters["token"]) {
            // The token moves into a cookie, and out of the address bar and the history.
            var response = Response(status: .seeOther, headers: [.location: request.uri.path, .cacheControl: "no-store"])
            response.setCookie(Cookie(
                name: PanelAccess.cookieName, value: access.token, path: "/", secure: false, httpOnly: true, sameSite: .strict))
            return response
        }
        // OFREP's document: missing or invalid credentials are 401, with the scheme to use.
        if request.uri.path.hasPrefix("/ofrep/") {
            return OFREPCrossOrigin.unauthorized(hint: "send the token envscript ui printed as Authorization: Bearer <token>")
        }
        return Self.forbidden(request, "no valid access token: open the address the panel printed when it started, with its ?token=")
    }

    /// Whether `request` carries the token, as a bearer header, the panel's cookie or a `?token=`:
    /// its connection is then the owner's (``ConnectionRegistry``), whatever else the guard decides.
    static func carriesToken(_ request: Request, access: PanelAccess) -> Bool {
        return access.isToken(AccessToken.bearer(of: request))
            || access.isToken(request.cookies[PanelAccess.cookieName].map { Substring($0.value) })
            || access.isToken(request.uri.queryParameters["token"])
    }

    private static func isSafe(_ method: HTTPRequest.Method) -> Bool {
        method == .get || method == .head || method == .options
    }

    /// 403 with `message`: the control API's JSON error under `/v1`, plain text elsewhere.
    private static func forbidden(_ request: Request, _ message: String) -> Response {
        if request.uri.path.hasPrefix("/v1/") { return ControlResponse.error(ControlError(.forbidden, message)) }
        return Response(
            status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "Forbidden: \(message)\n")))
    }
}
