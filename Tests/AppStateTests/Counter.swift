import Synchronization

/// A thread-safe counter, for counting factory calls and notifications.
final class Counter: Sendable {
    private let count = Mutex(0)

    /// Adds one and returns the new count.
    @discardableResult
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }

    var value: Int { count.withLock { $0 } }
}

/// A thread-safe list, for collecting what observers hear.
final class Recorder<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])

    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    var all: [Element] { elements.withLock { $0 } }
}
