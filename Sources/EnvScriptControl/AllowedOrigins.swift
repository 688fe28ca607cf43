public import EnvScriptOperations
import Foundation

/// The web origins whose pages may call a server's OFREP routes from a browser (CORS): a web app's dev
/// server (`http://localhost:5173`), the site of a front end. Used by ``OFREPListener`` and by the
/// control panel (`envscript ui --allow-origin`).
///
/// Each origin is `http` or `https`, a host and an optional port, nothing after; it is kept in lower
/// case without its scheme's default port, as browsers send it in `Origin`. Allowing an origin lets its
/// pages *read* the answers; every request still needs the access token as `Authorization: Bearer`.
public struct AllowedOrigins: Sendable, Equatable {
    /// The origins, normalised.
    package let origins: Set<String>

    /// No origin: only requests without `Origin` (servers, command-line clients) are answered.
    public static let none = AllowedOrigins(normalized: [])

    /// The origins `texts`, normalised.
    ///
    /// - Throws: `HostError/Code/invalidOrigin` naming the first that is not an origin.
    public init(_ texts: [String]) throws(HostError) {
        var origins: Set<String> = []
        for text in texts {
            guard let origin = Self.normalized(text) else { throw HostError.invalidOrigin(text) }
            origins.insert(origin)
        }
        self.init(normalized: origins)
    }

    private init(normalized origins: Set<String>) {
        self.origins = origins
    }

    /// Whether a request's `Origin` header value is one of the origins.
    package func allows(_ origin: String) -> Bool {
        Self.normalized(origin).map(origins.contains) ?? false
    }

    /// `text` as an origin (`http://localhost:5173`), or nil when it is not one.
    static func normalized(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host?.lowercased(), !host.isEmpty, url.user == nil, url.query == nil, url.fragment == nil,
              url.path.isEmpty || url.path == "/"
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)" + (url.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")
    }
}
