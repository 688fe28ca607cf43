public import Locking
public import Synchronization

/// The value of a write that could not be saved — a file that cannot be written, a secure key that is
/// missing — kept in memory so the next reads see the change, until a write or update succeeds (here
/// or, for stored state, by another writer of the store), the state is reset, or the container
/// switches or is read anew from disk.
///
/// Whether one is kept is an atomic load, so reads of state that saves fine pay nothing more.
@usableFromInline
final class UnsavedValue<Value: Sendable>: Sendable {
    @usableFromInline let isKept = Atomic<Bool>(false)
    @usableFromInline let kept = Locked<Value?>(nil)

    init() {}

    /// The kept value, if any.
    @inlinable var value: Value? {
        guard isKept.load(ordering: .acquiring) else { return nil }
        return kept.withLock { $0 }
    }

    /// Keeps `value` in place of the saved one.
    func keep(_ value: Value) {
        kept.withLock { kept in
            kept = value
            isKept.store(true, ordering: .releasing)
        }
    }

    /// Forgets the kept value: what is saved stands again. Returns whether there was one.
    @inlinable @discardableResult
    func forget() -> Bool {
        guard isKept.load(ordering: .acquiring) else { return false }
        return kept.withLock { kept in
            defer {
                kept = nil
                isKept.store(false, ordering: .releasing)
            }
            return kept != nil
        }
    }
}
