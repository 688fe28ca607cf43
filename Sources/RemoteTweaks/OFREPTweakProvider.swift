import Foundation
import Preferences
import Tweaks

/// A read-only provider whose flags an OFREP service (the OpenFeature Remote Evaluation Protocol)
/// evaluates: a bulk evaluation, `POST {url}/ofrep/v1/evaluate/flags` with `{"context": …}` for the
/// provider's ``context``, fetched in the background and kept.
///
/// It shares ``RemoteTweakProvider``'s machinery: `If-None-Match` with the last `ETag` (a 304 keeps the
/// copy), a kept copy of the last good bulk answer in the container (``RemoteTweakProvider/keptCopyURL(home:name:)``),
/// refreshing every ``RemoteTweakProvider/Configuration/refreshInterval``, and after a 429 no request
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
public final class OFREPTweakProvider: TweakProvider, RemoteRefreshingProvider {
    /// The provider's name (default "ofrep").
    public let name: String
    /// The service's base URL and how to fetch; requests go to ``bulkURL``.
    public let configuration: RemoteTweakProvider.Configuration
    /// The context every bulk evaluation is asked for.
    public let context: TweakContext
    /// `{url}/ofrep/v1/evaluate/flags`.
    public let bulkURL: URL

    private let remote: RemoteDocument<OFREPBulkAnswer>

    /// The bulk evaluation URL of a service at `base`.
    public static func bulkURL(base: URL) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/ofrep/v1/evaluate/flags")!
    }

    /// Creates the provider and loads the kept copy if there is one (for the same URL and context).
    /// Nothing is fetched yet.
    public init(name: String = "ofrep", configuration: RemoteTweakProvider.Configuration, context: TweakContext = .empty) {
        self.name = name
        self.configuration = configuration
        self.context = context
        let bulkURL = Self.bulkURL(base: configuration.url)
        self.bulkURL = bulkURL
        var fetching = configuration
        fetching.url = bulkURL
        var body = "{\"context\":"
        TweakValue.object(context.jsonObject).writeExactJSON(into: &body)
        body += "}"
        self.remote = RemoteDocument(
            name: name, configuration: fetching, request: .init(method: "POST", body: Data(body.utf8))
        ) { data, file in
            try OFREPBulkAnswer(data, file: file)
        }
    }

    /// What the provider knows about its copy and its last attempts.
    public var status: RemoteTweakProvider.Status { remote.status }

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

    /// Reports refreshes that changed the copy and kept-copy reloads.
    public func observeChanges(_ handler: @escaping @Sendable (TweakProviderChange) -> Void) -> TweakObservation? {
        remote.changes.observe(handler)
    }

    // MARK: Refreshing (as RemoteTweakProvider's)

    /// Fetches the bulk evaluation now; see ``RemoteTweakProvider/refresh()``. During a 429's
    /// `Retry-After` it fails with `TweakError.Code.httpStatus` 429 without a request.
    @discardableResult
    public func refresh() async throws -> RemoteTweakProvider.RefreshResult { try await remote.refresh() }

    /// ``refresh()`` blocking the calling thread; never from a Swift task.
    @discardableResult
    public func refreshNow() throws -> RemoteTweakProvider.RefreshResult { try remote.refreshNow() }

    /// Fetches in the background now and every refresh interval; see ``RemoteTweakProvider/startRefreshing()``.
    public func startRefreshing() { remote.startRefreshing() }

    /// Stops the periodic refresh.
    public func stopRefreshing() { remote.stopRefreshing() }

    /// Waits until a fetch has ended since the provider was made or its kept copy reloaded.
    public func waitUntilFetched(timeout: Duration) async -> Bool { await remote.waitUntilFetched(timeout: timeout) }

    /// ``waitUntilFetched(timeout:)`` blocking the calling thread.
    public func waitUntilFetchedBlocking(timeout: Duration) -> Bool { remote.waitUntilFetchedBlocking(timeout: timeout) }

    /// Stops for good; see ``RemoteTweakProvider/close()``.
    public func close() { remote.close() }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { remote.isClosed }

    /// Re-reads the kept copy (after a container switch); see ``RemoteTweakProvider/reloadKeptCopy()``.
    public func reloadKeptCopy() throws { try remote.reloadKeptCopy() }
}

/// A provider fetching in the background that a host adopts: it starts it, reloads its kept copy after
/// switches, waits for its first fetch and closes it.
public protocol RemoteRefreshingProvider: TweakProvider, AnyObject {
    /// Fetches now and then periodically, in the background.
    func startRefreshing()
    /// Re-reads the kept copy of the container now live.
    func reloadKeptCopy() throws
    /// Waits until a fetch has ended.
    func waitUntilFetched(timeout: Duration) async -> Bool
    /// Waits until a fetch has ended, blocking the calling thread.
    func waitUntilFetchedBlocking(timeout: Duration) -> Bool
    /// Stops for good.
    func close()
    /// What the provider knows about its data and its last attempts.
    var status: RemoteTweakProvider.Status { get }
}

extension RemoteTweakProvider: RemoteRefreshingProvider {}

/// An OFREP bulk evaluation answer: `{"flags": [{key, value?, reason, variant, metadata} |
/// {key, errorCode, errorDetails}], "metadata": {…}}`.
struct OFREPBulkAnswer: Sendable, Equatable {
    enum Entry: Sendable, Equatable {
        case resolved(value: TweakValue?, reason: TweakReason, variant: String?, metadata: [String: TweakValue])
        case failed(code: TweakErrorCode, details: String)
    }

    /// The entries by flag key.
    var flags: [String: Entry]
    /// The answer's flag-set metadata.
    var metadata: [String: TweakValue]

    /// Reads `data`; `file` names it in errors.
    init(_ data: Data, file: String) throws {
        func problem(_ position: JSONScanner.Position, _ key: String?, _ reason: String) -> TweakError {
            TweakError.invalidJSON(file: file, line: position.line, column: position.column, key: key, reason: reason)
        }
        let root: JSONScanner.Node
        do {
            root = try JSONScanner.parse(data)
        } catch {
            throw problem(error.position, nil, error.message)
        }
        guard case .object(let members) = root.value else {
            throw problem(root.position, nil, "an OFREP bulk answer is an object, not \(TweakError.withArticle(root.value.typeName))")
        }
        var flags: [String: Entry] = [:]
        var metadata: [String: TweakValue] = [:]
        for member in members {
            switch member.key {
            case "flags":
                guard case .array(let items) = member.node.value else {
                    throw problem(member.node.position, "flags", "must be an array")
                }
                for item in items {
                    guard case .object(let fields) = item.value else {
                        throw problem(item.position, "flags", "each flag must be an object")
                    }
                    var values: [String: TweakValue] = [:]
                    for field in fields {
                        if let value = Self.value(field.node) { values[field.key] = value }
                    }
                    guard let key = values["key"]?.stringValue else {
                        throw problem(item.position, "flags", "a flag without a string 'key'")
                    }
                    if let code = values["errorCode"]?.stringValue {
                        flags[key] = .failed(
                            code: TweakErrorCode(rawValue: code), details: values["errorDetails"]?.stringValue ?? code)
                    } else {
                        var flagMetadata: [String: TweakValue] = [:]
                        if case .object(let fields)? = values["metadata"] { flagMetadata = fields }
                        flags[key] = .resolved(
                            value: values["value"],
                            reason: values["reason"]?.stringValue.map(TweakReason.init(rawValue:)) ?? .unknown,
                            variant: values["variant"]?.stringValue, metadata: flagMetadata)
                    }
                }
            case "metadata":
                if case .object(let fields)? = Self.value(member.node) { metadata = fields }
            default:
                continue
            }
        }
        self.flags = flags
        self.metadata = metadata
    }

    /// A JSON value as a tweak value; nil for null (and null members and items are left out).
    private static func value(_ node: JSONScanner.Node) -> TweakValue? {
        switch node.value {
        case .null: nil
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.compactMap(value))
        case .object(let members):
            .object(Dictionary(members.compactMap { member in value(member.node).map { (member.key, $0) } }) { _, last in last })
        }
    }
}
