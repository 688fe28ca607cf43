import Foundation
package import EnvScript

/// Who may use a panel: the addresses it answers to and the token every request must carry.
///
/// A request is let in only when
/// - its `Host` is one of ``allowedAuthorities`` (a page served from elsewhere under a name that
///   resolves to 127.0.0.1 — DNS rebinding — is refused);
/// - its `Origin`, when it has one, is one of the panel's own (no cross-site request);
/// - it carries the token: in the panel's cookie, as `Authorization: Bearer <token>`, or (the page
///   only) as `?token=` in the address printed at start, which sets the cookie;
/// - and, when the cookie is what lets it in and it changes something, it names its `Origin`, which
///   browsers always send with such requests (so a form posted from another site cannot use the cookie).
///
/// Pages of ``allowedOrigins`` (`envscript ui --allow-origin`: a web app's dev server, say) may call
/// the OFREP routes, as a browser's OpenFeature provider does: their preflights are answered, and
/// their requests let in with the token as `Authorization: Bearer` (never the cookie), their answers
/// readable by the page (`ETag` included). Nothing else is open to them.
package struct PanelAccess: Sendable {
    /// The random secret of this panel: 32 bytes, hex.
    package var token: String { secret.value }
    /// The token, and how requests show it.
    let secret: AccessToken
    /// `host:port` values accepted in the `Host` header.
    package let allowedAuthorities: Set<String>
    /// The `host:port` to open: the bound address (an IPv6 one in brackets), or 127.0.0.1 when the
    /// panel listens on every address.
    package let authority: String

    /// The origins whose pages may call the OFREP routes.
    package let allowedOrigins: AllowedOrigins

    /// The cookie that carries the token after the first visit.
    static let cookieName = "envscript_panel"

    /// Access for a panel listening on `port` of `bindHost`, with a new random token.
    init(bindHost: String, port: Int, allowedOrigins: AllowedOrigins = .none) {
        self.allowedOrigins = allowedOrigins
        secret = AccessToken.random()
        let host = Self.isWildcard(bindHost)
            ? "127.0.0.1" : (bindHost.contains(":") && !bindHost.hasPrefix("[") ? "[\(bindHost)]" : bindHost)
        authority = "\(host):\(port)"
        allowedAuthorities = ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", authority]
    }

    /// Whether `candidate` is the token, compared in time that does not depend on where they differ.
    func isToken(_ candidate: Substring?) -> Bool {
        secret.matches(candidate)
    }

    /// Whether `origin` (`scheme://host:port`) is the panel's own.
    func isOwnOrigin(_ origin: String) -> Bool {
        guard origin.hasPrefix("http://") else { return false }
        return allowedAuthorities.contains(String(origin.dropFirst("http://".count)))
    }

    private static func isWildcard(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" || host == "[::]" }
}
