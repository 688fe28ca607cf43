package import Hummingbird

/// An error answer of the control API: an HTTP status and the body
/// `{"error": {"code": "...", "message": "..."}}`.
///
/// Handlers throw it (or any error, which ``init(describing:)`` maps); clients decode
/// ``ControlErrorBody`` to show the message.
package struct ControlError: Error, Sendable, Codable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; each has one HTTP status.
    package enum Code: String, Sendable, Codable, CaseIterable {
        /// 404: no container, tweak or state has the name or key the request gave.
        case notFound = "not_found"
        /// 400: the request itself is wrong — malformed JSON, a missing or mistyped field, an invalid name.
        case badRequest = "bad_request"
        /// 409: a will-change hook (or another participant in the switch) refused; nothing changed.
        case refused
        /// 409: the request is well formed but conflicts with the home as it is (a name in use, the
        /// DEFAULT container, an entry in the way of a switch).
        case conflict
        /// 500: the operation failed on the host's side (a file, a provider, a closed host).
        case failed
        /// 403: the request may not come in — the control panel's access rules refused it before
        /// anything ran (no token, another Host, another site's Origin).
        case forbidden
        /// 405: the path is one of the API's, but not with this method; the `Allow` header lists the
        /// methods it takes.
        case methodNotAllowed = "method_not_allowed"

        /// The HTTP status of the code.
        package var status: Int {
            switch self {
            case .notFound: return 404
            case .badRequest: return 400
            case .refused, .conflict: return 409
            case .failed: return 500
            case .forbidden: return 403
            case .methodNotAllowed: return 405
            }
        }
    }

    /// What kind of failure this is.
    package var code: Code
    /// What failed and, where the engines say it, what to do about it.
    package var message: String

    /// An error with this code and message.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    package var description: String { "\(code.rawValue): \(message)" }

    /// The host was closed, or released, while its control API was still being served.
    static let hostClosed = ControlError(.failed, "the host has closed; its control API no longer answers")
}

/// The JSON body of every error answer: `{"error": {"code": "...", "message": "..."}}`.
package struct ControlErrorBody: Sendable, Codable, Equatable {
    /// The error.
    package var error: ControlError

    /// Wraps `error`.
    package init(error: ControlError) {
        self.error = error
    }
}

extension ControlError: HTTPResponseError {
    /// The HTTP status of ``code``.
    package var status: HTTPResponse.Status { HTTPResponse.Status(code: code.status) }

    /// The JSON error answer, so that handlers may simply throw a ``ControlError``.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        ControlResponse.error(self)
    }
}
