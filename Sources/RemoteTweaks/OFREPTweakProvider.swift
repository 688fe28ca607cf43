package import Foundation
public import Preferences
public import Tweaks

/// A read-only provider whose flags an OFREP service (the OpenFeature Remote Evaluation Protocol)
/// evaluates: a bulk evaluation, `POST {url}/ofrep/v1/evaluate/flags` with `{"context": …}` for the
/// provider's ``context``, fetched in the background and kept.
///
/// It shares ``RemoteTweakProvider``'s machinery: `If-None-Match` with the last `ETag` (a 304 keeps the
/// copy), a kept copy of the last good bulk answer in the container (``FetchingTweakProvider/keptCopyURL(home:name:)``),
/// refreshing every ``FetchingTweakProvider/Configuration/refreshInterval``, and after a 429 no request
/// before its `Retry-After` (seconds or an HTTP date) has passed.
///
/// Lookups never wait for the network; they answer from the copy:
/// - a flag the copy has answers with its value, variant, reason and metadata (`Tweak.dependsOnContext`
///   unless its reason is `STATIC`); an entry without a value gives the caller's default with its reason;
/// - a lookup whose context — its own over the provider's — differs from the one the copy was evaluated
///   for: a flag the server marked `STATIC` answers from the copy, keeping reason `STATIC` (its value is
///   the same for every context); any other gives the caller's default with reason `STALE` and error
///   code `PROVIDER_NOT_READY`;
/// - an entry that is an error gives the caller's default with its error code, except `FLAG_NOT_FOUND`,
///   which, like a flag the copy lacks, is nil: the next provider of the stack is asked;
/// - before any copy exists, lookups throw (`TweakError.Code.remoteNotLoaded`, or the last fetch's error).
public final class OFREPTweakProvider: FetchingTweakProvider, TweakProvider, RemoteRefreshingProvider, @unchecked Sendable {
    /// The context every bulk evaluation is asked for.
    public let context: TweakContext
    /// `{url}/ofrep/v1/evaluate/flags`.
    package let bulkURL: URL

    private let remote: RemoteDocument<OFREPBulkAnswer>

    /// The bulk evaluation URL of a service at `base`.
    package static func bulkURL(base: URL) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/ofrep/v1/evaluate/flags")!
    }

    /// Creates the provider and loads the kept copy if there is one (for the same URL and context).
    /// Nothing is fetched yet.
    public init(name: String = "ofrep", configuration: Configuration, context: TweakContext = .empty) {
        self.context = context
        let bulkURL = Self.bulkURL(base: configuration.url)
        self.bulkURL = bulkURL
        var fetching = configuration
        fetching.url = bulkURL
        var body = "{\"context\":"
        JSONValue.object(context.jsonObject).writeJSON(into: &body)
        body += "}"
        let remote = RemoteDocument(
            name: name, configuration: fetching, request: .init(method: "POST", body: Data(body.utf8))
        ) { data, file in
            try OFREPBulkAnswer(data, file: file)
        }
        self.remote = remote
        super.init(name: name, configuration: configuration, fetching: remote)
    }

    // MARK: TweakProvider

    /// The flag in the provider's own context: its value, or nil when the copy has none for it.
    public func tweak(feature: String, variable: String) throws -> Tweak? {
        if case .value(let tweak)? = try evaluate(feature: feature, variable: variable, context: .empty) { return tweak }
        return nil
    }

    /// The flag's answer from the copy; see the type's description.
    public func evaluate(feature: String, variable: String, context: TweakContext) throws -> TweakAnswer? {
        let bulk = try remote.current()
        let key = TweakKey(feature: feature, variable: variable)
        guard let entry = bulk.flags[key.flagKey] else { return nil }
        let sameContext = context.merged(over: self.context) == self.context
        switch entry {
        case .failed(let code, _) where code == .flagNotFound:
            return nil
        case .failed(let code, let details):
            return .callerDefault(TweakDefaultAnswer(
                feature: feature, variable: variable, reason: .error, errorCode: code, errorMessage: details,
                metadata: bulk.metadata, dependsOnContext: true))
        case .resolved(let value, let reason, let variant, let metadata):
            let metadata = bulk.metadata.merging(metadata) { _, own in own }
            let dependsOnContext = reason != .static
            if dependsOnContext && !sameContext {
                return .callerDefault(TweakDefaultAnswer(
                    feature: feature, variable: variable, reason: .stale, errorCode: .providerNotReady,
                    errorMessage: "'\(name)' holds evaluations for another context", metadata: metadata,
                    dependsOnContext: true))
            }
            guard let value else {
                return .callerDefault(TweakDefaultAnswer(
                    feature: feature, variable: variable, reason: reason, metadata: metadata,
                    dependsOnContext: dependsOnContext))
            }
            return .value(Tweak(
                feature: feature, variable: variable, value: value, source: name, variant: variant, reason: reason,
                metadata: metadata, dependsOnContext: dependsOnContext))
        }
    }

    /// Every flag of the copy that has a value, in the provider's own context.
    public func allTweaks() throws -> [Tweak] {
        try remote.current().flags.keys.sorted().compactMap { flag in
            let key = TweakKey(flagKey: flag)
            return try tweak(feature: key.feature, variable: key.variable)
        }
    }

    /// The key of every flag of the copy, those answered without a value or with an error included;
    /// not those the service reported it does not have (`FLAG_NOT_FOUND`), which lookups pass over.
    public func allKeys() throws -> [TweakKey] {
        try remote.current().flags.compactMap { key, entry in
            if case .failed(let code, _) = entry, code == .flagNotFound { return nil }
            return TweakKey(flagKey: key)
        }
    }

    /// Reports refreshes that changed the copy and kept-copy reloads.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        remote.changes.observe(handler)
    }
}
