import EnvScriptOperations
import Foundation

/// An HTTP listener on TCP on which an `EnvScriptHost` serves its flags over OFREP, the OpenFeature
/// Remote Evaluation Protocol: the OFREP provider of any OpenFeature SDK — a browser's web provider, the
/// services of a fleet — evaluates the host's whole stack (overrides, scripts' providers, flag files)
/// in its own context. Off unless `HostConfiguration/ofrepListener` is set.
///
/// Only the two OFREP routes are served (`POST /ofrep/v1/evaluate/flags` and
/// `/ofrep/v1/evaluate/flags/{key}`, the bulk answer with an `ETag` for polling); nothing of the control
/// API is. Every request must carry ``token`` as `Authorization: Bearer <token>` (401 otherwise). A
/// request that names an `Origin` — a browser's — is answered only for ``allowedOrigins`` (403 for
/// others): their preflights are answered, and their pages may read the answers, `ETag` included.
/// Connections are kept within ``limits``: past the cap, and after ``ServerLimits/unprovenTimeout``,
/// those that have not shown the token are closed first, so that nobody without it holds the clients
/// out.
public struct OFREPListener: Sendable {
    /// The address to listen on (default 127.0.0.1: this machine only). `0.0.0.0` or `::` for every
    /// network the machine is on, for a fleet; the token is then all that keeps others out, so serve
    /// it behind TLS (a reverse proxy) on any network you do not trust.
    public var address: String
    /// The TCP port; 0 (the default) picks a free one, which `EnvScriptHost/ofrepListenerPort` tells.
    public var port: Int
    /// The secret clients send as `Authorization: Bearer <token>`; at least 16 characters.
    public var token: String
    /// The origins whose pages may call the listener from a browser; none by default.
    public var allowedOrigins: AllowedOrigins
    /// What clients may hold of the listener: connections at once, idle and request timeouts, and how
    /// long a connection may stay without showing the token.
    public var limits: ServerLimits

    /// A listener on `port` of `address` that answers requests carrying `token`.
    public init(
        address: String = "127.0.0.1", port: Int = 0, token: String, allowedOrigins: AllowedOrigins = .none,
        limits: ServerLimits = ServerLimits()
    ) {
        self.address = address
        self.port = port
        self.token = token
        self.allowedOrigins = allowedOrigins
        self.limits = limits
    }

    /// A new random token (32 bytes from the system's generator, in hex), for an app that has none of
    /// its own to hand out.
    public static func randomToken() -> String {
        AccessToken.random().value
    }

    /// `address:port` as it is listened on, an IPv6 address in brackets.
    var authority: String {
        (address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address) + ":\(port)"
    }

    /// Refuses a listener that cannot be served safely.
    func validate() throws(HostError) {
        guard (0...65_535).contains(port) else {
            throw HostError.ofrepListenerFailed(address: authority, reason: "the port must be between 0 and 65535")
        }
        guard token.count >= 16 else {
            throw HostError.ofrepListenerFailed(
                address: authority,
                reason: "its token has \(token.count) characters; give at least 16 (OFREPListener.randomToken() makes one)")
        }
        guard !token.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw HostError.ofrepListenerFailed(address: authority, reason: "its token must not contain spaces or line breaks")
        }
    }
}
