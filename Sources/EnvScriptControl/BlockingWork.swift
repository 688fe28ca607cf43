import Foundation

/// Runs blocking work — anything that takes the host's lock, the container engine's gate, a file lock
/// or calls into Lua — off the NIO event loops and off the Swift concurrency pool.
///
/// The control API's handlers are async, but the engines they drive block: a switch waits for the
/// home's file lock and runs Lua hooks, a tweak lookup may call a Lua provider. Run on an event loop,
/// such work would stall every connection of that loop; run on the cooperative pool (two threads on
/// a small machine) it would starve every other task. So each piece of it runs on a thread of
/// ``BlockingThreadPool`` and the handler awaits the result.
///
/// Not on a concurrent `DispatchQueue`: on Linux its width is the number of cores and it adds a thread
/// for a blocked one only about once a second, so two switches waiting for another process's lock
/// held up every other request — among them that process's own request to take part in its change,
/// which is what it was waiting for.
enum BlockingWork {
    private static let pool = BlockingThreadPool(label: "envscript-block")

    /// Runs `body` on a thread of the pool and returns its result (or throws its error) to the caller.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            pool.submit {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
