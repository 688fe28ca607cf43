package import Hummingbird

/// Server-sent events as the control API and the panel send them: frames of one line of JSON, in a
/// `text/event-stream` answer that ends when its producer does or when the client goes away.
package enum ServerSentEvents {
    /// The frame of event `name`: `event:`, one `data:` line of `payload` as JSON (the control API's
    /// encoder writes one line: newlines inside strings are escaped), then a blank line.
    package static func frame(_ name: String, _ payload: some Encodable) throws -> String {
        "event: \(name)\ndata: \(String(decoding: try ControlResponse.encoder().encode(payload), as: UTF8.self))\n\n"
    }

    /// A `text/event-stream` answer whose body is what `produce` sends, once the body is being written
    /// (so an answer that is never sent starts nothing). The body ends when `produce` returns;
    /// `produce` is cancelled when the client disconnects.
    package static func response(
        to request: Request, _ produce: @escaping @Sendable (_ send: (String) async throws -> Void) async throws -> Void
    ) -> Response {
        let headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await produce { text in try await writer.write(ByteBuffer(string: text)) }
                }
            } catch is CancellationError {
                return // the client went away; there is no one left to finish the body for
            }
            try await writer.finish(nil)
        })
    }
}
