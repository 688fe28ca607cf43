import Locking

/// A request to stop the change under way, made from another thread (a Ctrl-C handler) and read by the
/// change at its safe points.
///
/// Given to ``AppContainer/activate(container:interruption:)``. A switch asked to stop before its
/// commit point — between its will-change hooks, after its participants flushed, before each move,
/// before recording the new active container — undoes what it did and throws
/// ``ContainerError/Code/interrupted``, with nothing changed on disk and no journal left that would
/// carry it out later. A switch past its commit point is finished: the request comes too late for it.
package final class ChangeInterruption: Sendable {
    private let requested = Locked(false)
    private let requestedElsewhere: @Sendable () -> Bool

    /// A request not made yet; `requestedElsewhere` says whether one was made where ``request()`` cannot
    /// be called (a signal handler records the moment a Ctrl-C arrived, before any thread hears of it).
    package init(requestedElsewhere: @escaping @Sendable () -> Bool = { false }) {
        self.requestedElsewhere = requestedElsewhere
    }

    /// Asks the change under way (or the next one) to stop.
    package func request() {
        requested.withLock { $0 = true }
    }

    /// Whether a stop was asked for.
    package var isRequested: Bool {
        requestedElsewhere() || requested.withLock { $0 }
    }
}
