import Containers
import Foundation
import Hummingbird
import NIOCore

/// A failed control API operation: its HTTP status, code and message, sent as
/// `{"error": {"code": ..., "message": ...}}`.
struct ControlFailure: Error, CustomStringConvertible {
    var status: HTTPResponse.Status
    var code: String
    var message: String

    static func badRequest(_ message: String) -> Self { Self(status: .badRequest, code: "bad_request", message: message) }
    static func notFound(_ message: String) -> Self { Self(status: .notFound, code: "not_found", message: message) }
    static func refused(_ message: String) -> Self { Self(status: .conflict, code: "refused", message: message) }
    static func gone(_ message: String) -> Self { Self(status: .serviceUnavailable, code: "closed", message: message) }

    var description: String { message }
}

/// A weak reference to the host that serves the API, so the server never keeps a closed host alive.
/// Sound to share across threads: the host serialises Lua through its lock and its engines are
/// thread-safe; every use runs on a ``BlockingWork`` thread.
struct HostReference: @unchecked Sendable {
    weak var object: EnvScriptHost?

    func host() throws -> EnvScriptHost {
        guard let object else { throw ControlFailure.gone("the host is closing") }
        return object
    }
}

/// Runs `body` as ``BlockingWork`` and answers with its value as JSON, or with the failure.
func respond<Value: Encodable & Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Response {
    do {
        let value = try await BlockingWork.run(body)
        return try jsonResponse(value, status: .ok)
    } catch let failure as ControlFailure {
        return try jsonResponse(ParticipationMessages.Failure(code: failure.code, message: failure.message), status: failure.status)
    } catch {
        return try jsonResponse(ParticipationMessages.Failure(code: "failed", message: "\(error)"), status: .internalServerError)
    }
}

/// The request's JSON body as `T`; a malformed body is a 400 naming what is wrong.
func decode<T: Decodable>(_ type: T.Type, from request: Request, context: BasicRequestContext) async throws -> T {
    do {
        return try await request.decode(as: T.self, context: context)
    } catch {
        throw HTTPError(.badRequest, message: "the request body is not a valid \(T.self): \(error)")
    }
}

/// `value` encoded as JSON with `status`.
func jsonResponse<Value: Encodable>(_ value: Value, status: HTTPResponse.Status) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let data = try encoder.encode(value)
    return Response(
        status: status, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}
