import Synchronization

/// A thread-safe list of change handlers. Handlers are called outside the list's lock, so a handler may
/// add or cancel observers or change the state it observes.
final class HandlerList<Event: Sendable>: Sendable {
    private struct Entries {
        var nextID: UInt64 = 0
        var handlers: [(id: UInt64, handler: @Sendable (Event) -> Void)] = []
    }

    private let entries = Mutex(Entries())

    /// Registers `handler`; the returned observation removes it.
    func add(_ handler: @escaping @Sendable (Event) -> Void) -> StateObservation {
        let id = entries.withLock { entries in
            entries.nextID += 1
            entries.handlers.append((entries.nextID, handler))
            return entries.nextID
        }
        return StateObservation { [weak self] in
            self?.entries.withLock { entries in entries.handlers.removeAll { $0.id == id } }
        }
    }

    /// True when nobody listens, so callers can skip building events.
    var isEmpty: Bool { entries.withLock { $0.handlers.isEmpty } }

    /// Calls every handler registered at the time of the call.
    func notify(_ event: Event) {
        let current = entries.withLock { $0.handlers.map(\.handler) }
        for handler in current { handler(event) }
    }
}
