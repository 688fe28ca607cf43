import Synchronization

/// Keeps a change observer registered: ``cancel()`` removes it, and so does dropping the last reference,
/// so an observer never outlives whoever asked for it. Shared by the engines built on preferences
/// (AppState's `StateObservation` is this type).
public final class PreferencesObservation: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// An observation that runs `onCancel` once, on ``cancel()`` or when released.
    public init(onCancel: @escaping @Sendable () -> Void) {
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

/// A thread-safe list of handlers, called outside its lock so a handler may register, remove or call
/// back into whatever notified it.
public final class ObserverList<Event: Sendable>: Sendable {
    private struct Handlers {
        var nextID = 0
        var entries: [(id: Int, handler: @Sendable (Event) -> Void)] = []
    }

    private let handlers = Mutex(Handlers())

    /// An empty list.
    public init() {}

    /// Registers `handler`; the returned observation removes it.
    public func add(_ handler: @escaping @Sendable (Event) -> Void) -> PreferencesObservation {
        let id = handlers.withLock { state in
            state.nextID += 1
            state.entries.append((state.nextID, handler))
            return state.nextID
        }
        return PreferencesObservation { [weak self] in
            self?.handlers.withLock { state in state.entries.removeAll { $0.id == id } }
        }
    }

    /// True when nobody listens, so callers can skip building events.
    public var isEmpty: Bool { handlers.withLock { $0.entries.isEmpty } }

    /// Calls every handler registered at the time of the call.
    public func notify(_ event: Event) {
        let current = handlers.withLock { $0.entries.map(\.handler) }
        for handler in current { handler(event) }
    }
}
