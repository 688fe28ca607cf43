package import Hummingbird

/// Answers the errors that happen outside the control API's handlers — a path no operation has, a
/// method a path does not take, a body too large — as the API's JSON errors, so that a client always
/// gets `{"error": {"code", "message"}}`.
///
/// The handlers of ``ControlRoutes`` answer their own errors; add this middleware to the router (before
/// the routes, as Hummingbird applies router middleware to the routes added after it) so that the rest
/// answers alike.
package struct ControlErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// A middleware for a router of `Context`.
    package init() {}

    /// Runs the rest of the chain and turns what it throws into a JSON error answer.
    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound && !(error is ControlError) {
            return ControlResponse.error(ControlError(
                .notFound,
                "no operation \(request.method) \(request.uri.path); the operations of the control API are listed in openapi/envscript-control.json"))
        } catch {
            return ControlResponse.error(ControlError(describing: error))
        }
    }
}
