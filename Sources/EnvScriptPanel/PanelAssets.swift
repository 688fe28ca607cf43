import HTTPTypes
import Hummingbird

/// The page itself: plain HTML, CSS and JavaScript built into the binary (SwiftPM embeds the files of
/// `Resources/`), served with headers that keep it to its own origin.
enum PanelAssets {
    /// Adds `GET /`, `/panel.css` and `/panel.js` to `router`.
    static func register<Context: RequestContext>(on router: Router<Context>) {
        let assets: [(path: String, bytes: [UInt8], type: String)] = [
            ("/", PackageResources.index_html, "text/html; charset=utf-8"),
            ("/panel.css", PackageResources.panel_css, "text/css; charset=utf-8"),
            ("/panel.js", PackageResources.panel_js, "text/javascript; charset=utf-8"),
        ]
        for asset in assets {
            router.get(RouterPath(asset.path)) { _, _ in
                Response(status: .ok, headers: headers(contentType: asset.type), body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
            }
        }
    }

    /// Nothing from elsewhere (no CDN, no inline script), no framing, no referrer, no caching.
    private static func headers(contentType: String) -> HTTPFields {
        [
            .contentType: contentType,
            .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer",
            .cacheControl: "no-store",
        ]
    }
}

private extension HTTPField.Name {
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
