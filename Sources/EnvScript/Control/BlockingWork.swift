import Dispatch

/// Runs blocking work — anything that takes the host's locks, the home's file locks or calls into
/// Lua — on a thread of its own, never on a NIO event loop or a thread of Swift's cooperative pool,
/// which must never wait.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "envscript.control.blocking", attributes: .concurrent)

    /// Runs `body` on a dispatch thread and returns (or throws) what it does.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
