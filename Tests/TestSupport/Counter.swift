import Locking

/// A thread-safe counter, for counting factory calls and notifications.
package final class Counter: Sendable {
    private let count = Locked(0)

    /// A counter at zero.
    package init() {}

    /// Adds one and returns the new count.
    @discardableResult
    package func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }

    /// The count now.
    package var value: Int { count.withLock { $0 } }
}

/// A thread-safe list, for collecting what observers and threads report.
package final class Recorder<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])

    /// An empty list.
    package init() {}

    /// Adds `element` at the end.
    package func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    /// Everything added, in order.
    package var all: [Element] { elements.withLock { $0 } }
}
