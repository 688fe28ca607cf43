import AsyncHTTPClient
import Containers
import Foundation
import NIOCore
import NIOHTTP1

/// One JSON request to an attached host's control socket, with AsyncHTTPClient: how the hosts of a home,
/// and the command line, reach one another.
enum AttachedHostRequest {
    /// Posts `body` as JSON to `path` of the host `record` names, answered within `timeout`.
    ///
    /// - Throws: ``ParticipationError/Reason/unreachable(pid:socket:reason:)`` when the socket's folder
    ///   could be anybody's, or its path cannot be a URL.
    static func post<Body: Encodable>(
        _ body: Body, to path: String, of record: AttachedHostRecord, timeout: Duration
    ) throws -> EventLoopFuture<HTTPClient.Response> {
        // A socket in a folder others may write could be anybody's, standing in for the host.
        try AttachedHosts.checkSocketFolder(of: record.socketPath)
        guard let url = URL(httpURLWithSocketPath: record.socketPath, uri: path) else {
            throw ParticipationError.unreachable(pid: record.pid, socket: record.socketPath, reason: "not a usable socket path")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        let request = try HTTPClient.Request(
            url: url, method: .POST, headers: headers, body: .data(try JSONEncoder().encode(body)))
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout.inSeconds * 1e9))
        return HTTPClient.shared.execute(request: request, deadline: deadline)
    }

    /// The message of an error answer (`{"error": {"message": ...}}`), else its status.
    static func failureMessage(_ response: HTTPClient.Response) -> String {
        if var body = response.body, let data = body.readData(length: body.readableBytes),
           let failure = try? JSONDecoder().decode(ControlErrorBody.self, from: data) {
            return failure.error.message
        }
        return "HTTP \(response.status.code)"
    }
}
