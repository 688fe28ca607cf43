import Synchronization

/// A held override of a dependency (``Application/override(_:with:)``,
/// ``DependencyContainer/override(_:with:)``): in force for every task and thread until ``cancel()`` is
/// called or the last reference to it goes.
///
/// Held overrides nest: the newest one in force wins, and cancelling any of them — in any order —
/// leaves the others as they were. An override scoped to a task (``DependencyContainer/override(_:with:_:)-(String,_,_)``)
/// wins over held ones within its task.
public final class DependencyOverride: Sendable {
    private let undo: @Sendable () -> Void
    private let isCancelled = Atomic<Bool>(false)

    init(undo: @escaping @Sendable () -> Void) {
        self.undo = undo
    }

    deinit { cancel() }

    /// Ends the override; calling it again does nothing.
    public func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        undo()
    }
}
