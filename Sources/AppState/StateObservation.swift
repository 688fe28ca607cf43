import Synchronization

/// Keeps a change observer registered: ``cancel()`` removes it, and so does dropping the last reference,
/// so an observer never outlives whoever asked for it.
public final class StateObservation: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    /// Removes the observer; calling it again does nothing.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}
