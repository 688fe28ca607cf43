import AsyncHTTPClient
import Containers
import EnvScript
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// Sends the control API's requests of a panel (`/v1/...`, but for the panel's own routes) to the
/// application attached to the home, through its control socket, while one is attached — so the page
/// shows that application's flags and state, and its switches run in that application first. Without
/// one, the request goes on to the panel's own host.
///
/// Answers stream back as they come, event streams included. A request the application cannot take
/// (it died meanwhile) is answered by the panel's host when it only reads; one that changes something
/// fails with a message saying so, since it may or may not have happened.
struct PanelForwarding<Context: RequestContext>: RouterMiddleware {
    let target: PanelTarget
    let client: HTTPClient

    /// The largest request body forwarded to `path`: an archive to import may be large.
    static func bodyLimit(for path: String) -> Int {
        path == "/v1/containers/import" ? ControlRoutes.importedArchiveMaximumSize : 4 << 20
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.isForwarded(request.uri.path), let application = target.application() else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: Self.bodyLimit(for: request.uri.path))
        do {
            return try await forward(request, body: body, to: application)
        } catch {
            let stillThere = target.application()?.id == application.id
            if !stillThere && Self.isReadOnly(request.method) { return try await next(request, context) }
            let outcome = Self.isReadOnly(request.method) ? "" : " It may or may not have been done: look before trying again."
            return ControlResponse.error(ControlError(
                .failed, "the application pid \(application.pid) did not answer (\(error)).\(outcome)"))
        }
    }

    private func forward(_ request: Request, body: ByteBuffer, to application: AttachedHostRecord) async throws -> Response {
        // A socket in a folder others may write could be anybody's, standing in for the application.
        try AttachedHosts.checkSocketFolder(of: application.socketPath)
        guard let url = URL(httpURLWithSocketPath: application.socketPath, uri: request.uri.description) else {
            throw ControlError(.failed, "the socket path '\(application.socketPath)' cannot be used")
        }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        // With If-None-Match, an OFREP client polling through the panel gets the application's 304s.
        for field in [HTTPField.Name.contentType, .accept, .ifNoneMatch] {
            if let value = request.headers[field] { outgoing.headers.add(name: field.rawName, value: value) }
        }
        if body.readableBytes > 0 { outgoing.body = .bytes(body) }
        // The deadline covers the answer's head only: an event stream then lasts as long as it lasts.
        let answer = try await client.execute(outgoing, timeout: .seconds(60))
        var headers = HTTPFields()
        for (name, field) in [
            ("Content-Type", HTTPField.Name.contentType), ("Cache-Control", .cacheControl), ("Content-Disposition", .contentDisposition),
            ("ETag", .eTag),
        ] {
            if let value = answer.headers.first(name: name) { headers[field] = value }
        }
        let status = HTTPResponse.Status(code: Int(answer.status.code))
        guard headers[.contentType]?.hasPrefix("text/event-stream") == true else {
            return Response(status: status, headers: headers, body: ResponseBody(asyncSequence: answer.body))
        }
        // An event stream whose application goes away ends as a stream ends, so the page reconnects
        // (to the home, or to the next application) rather than seeing a broken connection.
        return Response(status: status, headers: headers, body: ResponseBody { writer in
            do {
                for try await chunk in answer.body { try await writer.write(chunk) }
            } catch {
                // The application's side closed (its process may have died mid-event).
            }
            try await writer.finish(nil)
        })
    }

    /// The control API's paths, without the panel's own (`/v1/panel`, `/v1/scenarios/...`).
    static func isForwarded(_ path: String) -> Bool {
        path.hasPrefix("/ofrep/") || (path.hasPrefix("/v1/") && path != "/v1/panel" && !path.hasPrefix("/v1/scenarios"))
    }

    private static func isReadOnly(_ method: HTTPRequest.Method) -> Bool {
        method == .get || method == .head
    }
}
