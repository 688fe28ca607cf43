import Dispatch

/// Runs blocking work — anything that takes the host's lock, the container engine's gate, a file lock
/// or calls into Lua — off the NIO event loops and off the Swift concurrency pool.
///
/// The control API's handlers are async, but the engines they drive block: a switch waits for the
/// home's file lock and runs Lua hooks, a tweak lookup may call a Lua provider. Run on an event loop,
/// such work would stall every connection of that loop; run on the cooperative pool (two threads on
/// a small machine) it would starve every other task. So each piece of it runs on a queue of its own
/// and the handler awaits the result.
enum BlockingWork {
    /// Concurrent, so one slow switch does not hold up a request that never meets it; the host's lock
    /// still serialises whatever touches Lua.
    private static let queue = DispatchQueue(label: "envscript.control.blocking", qos: .userInitiated, attributes: .concurrent)

    /// Runs `body` on the blocking queue and returns its result (or throws its error) to the caller.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
