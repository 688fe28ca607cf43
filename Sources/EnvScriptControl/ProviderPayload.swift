import Foundation
#if RemoteFlags
import RemoteTweaks
#endif
import Tweaks

/// A provider of the stack as the control API shows it: `name`, `kind` (`overrides`, `remote` — `tweak.remote` or
/// `tweak.ofrep` — or `other`), whether it takes `set` and `delete` (`writable`), and for a remote provider its `status`.
struct ProviderPayload: Encodable, Sendable {
    let name: String
    let kind: String
    let writable: Bool
    let status: RemoteStatusPayload?

    init(_ provider: any TweakProvider) {
        name = provider.name
        writable = provider is any MutableTweakProvider
        switch provider {
        case is OverridesTweakProvider:
            kind = "overrides"
            status = nil
        #if RemoteFlags
        case let remote as RemoteTweakProvider:
            kind = "remote"
            status = RemoteStatusPayload(remote.status, url: remote.configuration.url)
        case let ofrep as OFREPTweakProvider:
            kind = "remote"
            status = RemoteStatusPayload(ofrep.status, url: ofrep.bulkURL)
        #endif
        default:
            kind = "other"
            status = nil
        }
    }
}

/// `status` of a remote provider: its URL, the ETag of its document, when it last fetched and whether
/// that worked, and whether it answers from the copy kept in the container.
struct RemoteStatusPayload: Encodable, Sendable {
    let url: String
    let etag: String?
    let hasTweaks: Bool
    let fromKeptCopy: Bool
    let lastSuccess: String?
    let lastAttempt: String?
    let lastError: String?

    #if RemoteFlags
    init(_ status: RemoteTweakProvider.Status, url: URL) {
        self.url = url.absoluteString
        etag = status.etag
        hasTweaks = status.hasTweaks
        fromKeptCopy = status.isFromKeptCopy
        lastSuccess = status.lastSuccess?.formatted(.iso8601)
        lastAttempt = status.lastAttempt?.formatted(.iso8601)
        lastError = (status.lastError ?? status.keptCopyError).map { "\($0)" }
    }
    #endif

    enum CodingKeys: String, CodingKey {
        case url, etag
        case hasTweaks = "has_tweaks"
        case fromKeptCopy = "from_kept_copy"
        case lastSuccess = "last_success"
        case lastAttempt = "last_attempt"
        case lastError = "last_error"
    }
}

/// `{"providers": [...]}`: the stack, highest priority first.
struct ProviderListPayload: Encodable, Sendable {
    let providers: [ProviderPayload]
}
