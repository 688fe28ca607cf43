public import Synchronization
import Locking

/// Keeps a change observer registered: ``cancel()`` removes it, and so does dropping the last reference,
/// so an observer never outlives whoever asked for it. Shared by the engines built on preferences
/// (AppState's `StateObservation` is this type).
public final class PreferencesObservation: Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    /// An observation that runs `onCancel` once, on ``cancel()`` or when released.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Locked(onCancel)
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
///
/// ``isEmpty`` is one atomic load, so a change nobody listens to costs no lock and builds no event.
@usableFromInline
package final class ObserverList<Event: Sendable>: Sendable {
    /// The handlers, in an object of their own: an observation refers to it weakly (a handler may hold
    /// its own observation), and the list itself is never referred to weakly, so retaining it on the
    /// path of every change stays the runtime's fast path.
    @usableFromInline
    final class Registry: Sendable {
        struct Handlers {
            var nextID = 0
            var ids: [Int] = []
            /// In step with `ids`; copied out as a whole (a retain) to call them outside the lock.
            var handlers: [@Sendable (Event) -> Void] = []
        }

        /// How many handlers are registered, kept beside the lock for ``isEmpty``.
        @usableFromInline let count = Atomic<Int>(0)
        let handlers = Locked(Handlers())

        init() {}

        func remove(id: Int) {
            handlers.withLock { state in
                guard let index = state.ids.firstIndex(of: id) else { return }
                state.ids.remove(at: index)
                state.handlers.remove(at: index)
                count.store(state.ids.count, ordering: .releasing)
            }
        }
    }

    @usableFromInline let registry = Registry()

    /// An empty list.
    package init() {}

    /// Registers `handler`; the returned observation removes it.
    package func add(_ handler: @escaping @Sendable (Event) -> Void) -> PreferencesObservation {
        let id = registry.handlers.withLock { state in
            state.nextID += 1
            state.ids.append(state.nextID)
            state.handlers.append(handler)
            registry.count.store(state.ids.count, ordering: .releasing)
            return state.nextID
        }
        return PreferencesObservation { [weak registry] in registry?.remove(id: id) }
    }

    /// True when nobody listens, so callers can skip building events.
    @inlinable package var isEmpty: Bool { registry.count.load(ordering: .acquiring) == 0 }

    /// Calls every handler registered at the time of the call.
    package func notify(_ event: Event) {
        let current = registry.handlers.withLock { $0.handlers }
        for handler in current { handler(event) }
    }
}
