import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Follows an HTTP redirect only to a URL that ``RemoteTweakProvider/Configuration/allowsRedirect``
/// accepts; otherwise the redirect's own response ends the request.
final class RedirectGate: NSObject, URLSessionTaskDelegate, Sendable {
    private let allows: @Sendable (URL) -> Bool

    init(allows: @escaping @Sendable (URL) -> Bool) {
        self.allows = allows
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(request.url.map(allows) == true ? request : nil)
    }
}
