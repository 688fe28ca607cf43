import AppState
import Containers
import EnvScriptOperations
import Foundation
import Tweaks

/// One event of the `/v1/events` stream, as the host's observers report it.
enum ControlEvent: Sendable {
    /// First on every stream, once its observers are registered: nothing after it is missed.
    case ready(ReadyEventPayload)
    /// A switch finished (after the did-change hooks of the host ran).
    case container(ContainerEventPayload)
    /// The list of containers changed: one created, cloned, renamed, described or deleted, or the home
    /// reset — here or in another process attached to the home.
    case containers(ContainerListChangePayload)
    /// A tweak changed, or the whole stack did.
    case tweak(TweakEventPayload)
    /// A piece of state changed; its value is read when the event is sent.
    case state(StateKeyChange)
    /// Nothing happened for a while: a comment line keeps proxies and idle timers from closing the stream.
    case keepAlive
}

/// `event: ready`: the active container and switch generation when the stream started.
struct ReadyEventPayload: Encodable, Sendable {
    let activeContainer: ContainerView
    let generation: UInt64

    enum CodingKeys: String, CodingKey {
        case activeContainer = "active_container"
        case generation
    }
}

/// `event: container`: a switch from `from` to `to`, and the home's switch generation after it (absent
/// when it could not be read).
struct ContainerEventPayload: Encodable, Sendable {
    let to: ContainerView
    let from: ContainerView?
    let generation: UInt64?

    init(to: Container, from: Container?, generation: UInt64?) {
        self.to = ContainerView(to, activeUUID: to.uuid)
        self.from = from.map { ContainerView($0, activeUUID: to.uuid) }
        self.generation = generation
    }

    private enum CodingKeys: String, CodingKey { case to, from, generation }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(to, forKey: .to)
        try container.encode(from, forKey: .from) // `null` when there was no previous container
        try container.encodeIfPresent(generation, forKey: .generation)
    }
}

/// `event: containers`: what happened to the list of containers (`created`, `updated`, `deleted` or
/// `reset`) and to which container (`null` for a reset). Read `/v1/containers` again for the list.
struct ContainerListChangePayload: Encodable, Sendable {
    let change: String
    let uuid: String?

    init(_ change: ContainerListChange) {
        self.change = change.kind.rawValue
        uuid = change.uuid?.uuidString
    }

    private enum CodingKeys: String, CodingKey { case change, uuid }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(change, forKey: .change)
        try container.encode(uuid, forKey: .uuid)
    }
}

/// `event: tweak`: which provider changed which tweak, and the tweak in effect now — `null` when no
/// provider has it any more, or when the whole stack changed (then `feature` and `variable` are `null`
/// too: read `/v1/tweaks` again).
struct TweakEventPayload: Encodable, Sendable {
    let provider: String?
    let feature: String?
    let variable: String?
    let tweak: TweakPayload?

    init(_ change: TweakChange) {
        provider = change.provider
        feature = change.key?.feature
        variable = change.key?.variable
        tweak = change.tweak.map(TweakPayload.init)
    }

    private enum CodingKeys: String, CodingKey { case provider, feature, variable, tweak }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(provider, forKey: .provider)
        try container.encode(feature, forKey: .feature)
        try container.encode(variable, forKey: .variable)
        try container.encode(tweak, forKey: .tweak)
    }
}

/// `event: state`: a key that changed, why (`changed`, or `reloaded` after a switch), and its value
/// when the event was sent (or `error` when it could not be read).
struct StateEventPayload: Encodable, Sendable {
    let entry: StateEntryPayload
    let reason: String

    private enum CodingKeys: String, CodingKey { case reason }

    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reason, forKey: .reason)
    }
}

extension ControlEvent {
    /// The event in the `text/event-stream` format: `event:` and one `data:` line of JSON, then a blank
    /// line; a keep-alive is a comment line.
    func wireText(stateEntry: StateEntryPayload?) throws -> String {
        switch self {
        case .ready(let payload): return try ServerSentEvents.frame("ready", payload)
        case .container(let payload): return try ServerSentEvents.frame("container", payload)
        case .containers(let payload): return try ServerSentEvents.frame("containers", payload)
        case .tweak(let payload): return try ServerSentEvents.frame("tweak", payload)
        case .state(let change):
            let entry = stateEntry ?? StateEntryPayload(key: change.key, kind: change.kind, error: "the value could not be read")
            return try ServerSentEvents.frame("state", StateEventPayload(entry: entry, reason: change.reason == .changed ? "changed" : "reloaded"))
        case .keepAlive: return ": keep-alive\n\n"
        }
    }
}
