package import Foundation
package import Hummingbird

/// How the control API answers: JSON bodies, and every error as ``ControlErrorBody``.
package enum ControlResponse {
    /// Sorted keys, so answers are stable for diffing and tests; one line, so an answer is also a valid
    /// server-sent event data line.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as a JSON answer.
    package static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder().encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(data.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The JSON error answer of `error`.
    package static func error(_ error: ControlError) -> Response {
        let data = errorBody(error)
        return Response(
            status: HTTPResponse.Status(code: error.code.status),
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(data.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The body of the JSON error answer of `error`: `{"error": {"code": "...", "message": "..."}}`.
    package static func errorBody(_ error: ControlError) -> Data {
        // Encoding two strings does not fail; should it ever, the code alone still says what happened.
        (try? encoder().encode(ControlErrorBody(error: error)))
            ?? Data(#"{"error":{"code":"\#(error.code.rawValue)","message":""}}"#.utf8)
    }

    /// Runs a handler's `body`, answering any error it throws as JSON (see ``ControlError/init(describing:)``).
    package static func handling(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return self.error(ControlError(describing: error))
        }
    }

    /// The path parameter `name`, percent-decoded (the router matches the raw path, so a container named
    /// `Debug build` arrives as `Debug%20build`).
    package static func parameter(_ name: String, of context: some RequestContext) throws -> String {
        guard let raw = context.parameters.get(name) else {
            throw ControlError(.badRequest, "the path has no '\(name)' segment")
        }
        guard let decoded = raw.removingPercentEncoding else {
            throw ControlError(.badRequest, "the path segment '\(raw)' is not valid percent-encoded UTF-8")
        }
        return decoded
    }
}
