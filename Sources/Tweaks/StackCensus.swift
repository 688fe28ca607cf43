import Synchronization

/// How many of a tweak manager's stacks are alive: the current one, and the older ones that searches
/// begun before a change still hold. When only the current is, no search uses an older one.
final class StackCensus: Sendable {
    private let live = Atomic<Int>(0)

    func add() { live.add(1, ordering: .relaxed) }
    func remove() { live.subtract(1, ordering: .releasing) }
    var count: Int { live.load(ordering: .acquiring) }
}
