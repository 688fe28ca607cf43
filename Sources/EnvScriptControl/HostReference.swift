import Locking

/// A weak reference to a host that may be set after it is made, and read from any thread: what the
/// control routes of a host hold (see ``ControlHost``).
///
/// A host is not `Sendable`; the reference may still cross threads because whoever reads it
/// uses the host only under its lock (``ControlHost/run(_:)``).
final class HostReference: @unchecked Sendable {
    private struct Weak { weak var host: (any ControlledHost)? }
    private let stored: Locked<Weak>

    /// A reference to `host`, or to none yet.
    init(_ host: (any ControlledHost)? = nil) {
        stored = Locked(Weak(host: host))
    }

    /// The host, while it is alive; nil before ``set(_:)`` and once it is released.
    var host: (any ControlledHost)? { stored.withLock { $0.host } }

    /// Makes the reference point at `host`.
    func set(_ host: any ControlledHost) {
        stored.withLock { $0.host = host }
    }
}
