import Hummingbird

extension ControlRoutes {
    /// `GET /v1/events`: server-sent events — `ready` once the stream's observers are in place, then
    /// `container` after every switch, `tweak` after every tweak change and `state` after every state
    /// change, each with one line of JSON data; a keep-alive comment every 15 seconds.
    ///
    /// The stream ends when the client disconnects (its observers are removed at once), when
    /// ``finishEventStreams(of:)`` is called (a host that closes should call it), or at the next
    /// keep-alive after the host was released.
    static func registerEventRoutes<Context: RequestContext>(on router: Router<Context>, host: ControlHost) {
        router.get("/v1/events") { request, _ in
            await ControlResponse.handling {
                try host.checkAvailable()
                return ServerSentEvents.response(to: request) { send in
                    // Registered only once the body is being written, so a response that is never sent
                    // registers nothing.
                    let subscription = try await host.run { try ControlEventSubscription(host: $0, group: host.eventStreams) }
                    // The client gone, the observers go at once, even while an event is being prepared.
                    try await withTaskCancellationHandler {
                        defer { subscription.cancel() }
                        for await event in subscription.events {
                            try await send(try event.wireText(stateEntry: await stateEntry(for: event, host: host)))
                        }
                    } onCancel: {
                        subscription.cancel()
                    }
                }
            }
        }
    }

    /// Ends every open `/v1/events` stream of `host`, whichever server serves it — call it before a
    /// graceful shutdown of the host's servers, which otherwise wait for the streams' clients to leave.
    package static func finishEventStreams(of host: any ControlledHost) {
        ControlEventStreams.finishAll(key: ObjectIdentifier(host))
    }

    /// Ends the open `/v1/events` streams of the routes registered with `group`, and only those — call
    /// it before stopping that one server.
    package static func finishEventStreams(in group: EventStreamGroup) {
        ControlEventStreams.finishAll(key: ObjectIdentifier(group))
    }

    /// For a state event, the key's value now (or why it cannot be read).
    private static func stateEntry(for event: ControlEvent, host: ControlHost) async -> StateEntryPayload? {
        guard case .state(let change) = event else { return nil }
        do {
            return try await host.run { try StateEntryPayload(key: change.key, in: $0.application, tolerant: true) }
        } catch {
            return StateEntryPayload(key: change.key, kind: change.kind, error: ControlError(describing: error).message)
        }
    }
}
