import Locking
import Synchronization

/// Applications made current, the current one last, with a generation that changes whenever the
/// current one does. The process has one (``CurrentApplication/process``).
@usableFromInline
final class CurrentApplicationStack: Sendable {
    private let made = Locked<[Application]>([])
    /// Changes whenever ``current`` changes; never 0.
    @usableFromInline let generation = Atomic<UInt64>(1)

    init() {}

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
