import Locking
public import Synchronization

/// Applications made current, the current one last, with a generation that changes whenever the
/// current one does. The process has one (``CurrentApplication/process``).
///
/// It also counts the task bindings in force (``Application/withCurrent(_:_:)``), so that one object a
/// property wrapper holds answers whether the handle it resolved still belongs to the current
/// application (``isUnchanged(since:)``).
@usableFromInline
final class CurrentApplicationStack: Sendable {
    private let made = Locked<[Application]>([])
    /// Changes whenever ``current`` changes; never 0.
    @usableFromInline let generation = Atomic<UInt64>(1)
    /// How many ``Application/withCurrent(_:_:)`` bindings are held, by any task.
    @usableFromInline let taskBindings = Atomic<Int>(0)

    init() {}

    /// Whether something resolved at `generation` (read while no task binding was in force) still
    /// belongs to the current application: the generation is unchanged and no task binding is in force.
    @inlinable
    func isUnchanged(since generation: UInt64) -> Bool {
        generation == self.generation.load(ordering: .acquiring) && taskBindings.load(ordering: .relaxed) == 0
    }

    /// The application made current last that has not resigned.
    var current: Application? { made.withLock { $0.last } }

    /// Makes `application` current (again, if it was made current before).
    func makeCurrent(_ application: Application) {
        made.withLock { made in
            made.removeAll { $0 === application }
            made.append(application)
            generation.add(1, ordering: .releasing)
        }
    }

    /// Takes `application` off the stack; the one made current before it is current again.
    func resign(_ application: Application) {
        made.withLock { made in
            let before = made.count
            made.removeAll { $0 === application }
            if made.count != before { generation.add(1, ordering: .releasing) }
        }
    }
}
