package import Hummingbird

/// How a server answers OFREP requests from a page of an allowed origin (CORS), and requests without
/// the token — the one set of rules of the control panel and the OFREP listener.
package enum OFREPCrossOrigin {
    /// Answers a request to the OFREP routes from a page of an allowed `origin`: its preflight at once,
    /// the request itself only with the bearer `token` (a cookie grants nothing here), the answer
    /// readable by the page, `ETag` included.
    package static func respond<Context: RequestContext>(
        to request: Request, context: Context, origin: String, token: AccessToken,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        if request.method == .options {
            response = Response(status: .noContent, headers: [
                .accessControlAllowMethods: "POST, GET, OPTIONS",
                .accessControlAllowHeaders: "Authorization, Content-Type, If-None-Match",
                .accessControlMaxAge: "600",
            ])
        } else if token.isBearer(of: request) {
            response = try await next(request, context)
        } else {
            response = unauthorized(hint: "send the access token as Authorization: Bearer <token>")
        }
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlExposeHeaders] = "ETag"
        response.headers[.vary] = "Origin"
        return response
    }

    /// OFREP's answer to missing or wrong credentials: 401, with the scheme to use and `hint`.
    package static func unauthorized(hint: String) -> Response {
        var response = OFREPAnswer.failure(status: .unauthorized, "no valid access token: \(hint)")
        response.headers[.wwwAuthenticate] = "Bearer"
        return response
    }
}
