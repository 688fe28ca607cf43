/// The `/v1/events` streams served by one server of a host, so that server can end its own streams
/// when it stops (`ControlRoutes/finishEventStreams(in:)`) without ending those of the host's other
/// servers — a panel stopping leaves the streams of the control socket alone.
package final class EventStreamGroup: Sendable {
    /// A new, empty group.
    package init() {}
}
