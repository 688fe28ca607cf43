import AppState
import Containers
import EnvScriptOperations
import Tweaks
import Locking

/// The observers one `/v1/events` stream keeps on its host — a did-change hook, a container-list hook,
/// a tweak observer, a state observer and a keep-alive timer — and the stream of events they feed.
///
/// ``cancel()`` removes every observer and ends the stream; the route calls it however the stream
/// ends (the client went away, ``ControlRoutes/finishEventStreams(of:)``, the host released), so a
/// client that disconnects leaves nothing registered behind.
final class ControlEventSubscription: Sendable {
    /// How often a keep-alive comment is sent on an idle stream.
    static let keepAliveInterval: Duration = .seconds(15)
    /// Events waiting for a slow client beyond this many are dropped, oldest first, rather than kept
    /// without bound.
    static let bufferLimit = 10_000

    /// The events, starting with ``ControlEvent/ready(_:)``.
    let events: AsyncStream<ControlEvent>
    private let removal: Locked<(@Sendable () -> Void)?>
    /// The keys it is listed under in ``ControlEventStreams``: its host, and the group of its server.
    private let keys: Set<ObjectIdentifier>

    /// Registers the observers on `host` and queues the `ready` event. Call under the host's lock.
    init(host: any ControlledHost, group: EventStreamGroup?) throws {
        let (events, continuation) = AsyncStream<ControlEvent>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        self.events = events
        keys = Set([ObjectIdentifier(host)] + (group.map { [ObjectIdentifier($0)] } ?? []))

        // Observers first, then the `ready` event: a change in between is held back by the gate and
        // sent right after `ready`, so the stream starts with `ready` and misses nothing after it.
        let gate = ReadyGate(continuation)
        let containers = host.containers
        // Each handler only queues an event: they run on whichever thread made the change, possibly
        // holding the host's lock, and must not block or call back into the host.
        let hook = containers.addDidChangeHook { to, from in
            gate.send(.container(ContainerEventPayload(to: to, from: from, generation: try? containers.epoch.generation)))
        }
        let listHook = containers.addContainerListHook { change in
            gate.send(.containers(ContainerListChangePayload(change)))
        }
        let tweakObservation = host.tweaks.observe { change in
            gate.send(.tweak(TweakEventPayload(change)))
        }
        let stateObservation = host.application.observe { change in
            gate.send(.state(change))
        }
        let weakHost = ControlHost(host)
        let keepAlive = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.keepAliveInterval)
                if Task.isCancelled { break }
                // A host released without ending its streams: end them here, which removes the observers.
                guard weakHost.isAlive else { return continuation.finish() }
                gate.send(.keepAlive)
            }
        }
        let remove: @Sendable () -> Void = {
            containers.removeHook(hook)
            containers.removeHook(listHook)
            tweakObservation.remove()
            stateObservation.cancel()
            keepAlive.cancel()
            continuation.finish()
        }
        removal = Locked(remove)
        ControlEventStreams.add(self, keys: keys)
        do {
            let epoch = try containers.epoch
            let active = try containers.activeContainer
            gate.open(with: .ready(ReadyEventPayload(
                activeContainer: ContainerView(active, activeUUID: active.uuid), generation: epoch.generation)))
        } catch {
            cancel()
            throw error
        }
    }

    /// Removes the observers and ends the stream; calling it again does nothing. Never blocks.
    func cancel() {
        let remove = removal.withLock { action in
            defer { action = nil }
            return action
        }
        guard let remove else { return }
        remove()
        ControlEventStreams.remove(self, keys: keys)
    }

    deinit { cancel() }
}

/// Holds back the events of a stream until its `ready` event is queued, then passes them straight on.
private final class ReadyGate: Sendable {
    private struct State {
        var isOpen = false
        var held: [ControlEvent] = []
    }

    private let continuation: AsyncStream<ControlEvent>.Continuation
    private let state = Locked(State())

    init(_ continuation: AsyncStream<ControlEvent>.Continuation) {
        self.continuation = continuation
    }

    /// Queues `event`, or holds it until ``open(with:)``. Never blocks for long: yielding only buffers.
    func send(_ event: ControlEvent) {
        state.withLock { state in
            // Yielding under the lock keeps the order in which the changes were reported.
            if state.isOpen { continuation.yield(event) } else { state.held.append(event) }
        }
    }

    /// Queues `first`, then the events held so far, and lets later ones through.
    func open(with first: ControlEvent) {
        state.withLock { state in
            continuation.yield(first)
            for event in state.held { continuation.yield(event) }
            state.held = []
            state.isOpen = true
        }
    }
}

/// The open event streams of each host, so that they can be counted and ended together.
enum ControlEventStreams {
    private struct Weak: Sendable {
        weak var subscription: ControlEventSubscription?
    }

    /// The open streams by key (a host, or an ``EventStreamGroup``), then by stream.
    private static let open = Locked<[ObjectIdentifier: [ObjectIdentifier: Weak]]>([:])

    static func add(_ subscription: ControlEventSubscription, keys: Set<ObjectIdentifier>) {
        open.withLock { open in
            for key in keys { open[key, default: [:]][ObjectIdentifier(subscription)] = Weak(subscription: subscription) }
        }
    }

    static func remove(_ subscription: ControlEventSubscription, keys: Set<ObjectIdentifier>) {
        open.withLock { open in
            for key in keys {
                open[key]?[ObjectIdentifier(subscription)] = nil
                if open[key]?.isEmpty == true { open[key] = nil }
            }
        }
    }

    /// How many event streams are open under `key` (a host, or a group).
    static func count(key: ObjectIdentifier) -> Int {
        open.withLock { $0[key]?.count ?? 0 }
    }

    /// Ends every event stream listed under `key`: all of a host's, or those of one group.
    static func finishAll(key: ObjectIdentifier) {
        let subscriptions = open.withLock { $0[key].map { Array($0.values) } ?? [] }
        for entry in subscriptions { entry.subscription?.cancel() }
    }
}
