import Locking

/// A thread-safe counter, for counting factory calls and notifications.
public final class Counter: Sendable {
    private let count = Locked(0)

    /// A counter at zero.
    public init() {}

    /// Adds one and returns the new count.
    @discardableResult
    public func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }

    /// The count now.
    public var value: Int { count.withLock { $0 } }
}

/// A thread-safe list, for collecting what observers and threads report.
public final class Recorder<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])

    /// An empty list.
    public init() {}

    /// Adds `element` at the end.
    public func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    /// Everything added, in order.
    public var all: [Element] { elements.withLock { $0 } }
}
