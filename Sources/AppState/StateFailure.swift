/// A read or write of state that failed where the caller asked for no error — through ``StateHandle/value``
/// or a property wrapper — and what was done instead.
///
/// Logged at error level through the application's logger (swift-log; by default labelled
/// `envscript.state`), then reported to its failure observers (``Application/observeFailures(_:)``).
public struct StateFailure: Sendable, CustomStringConvertible {
    /// What was being done when the failure happened.
    public enum Operation: String, Sendable {
        /// A read, answered with the initial value instead (or with a change kept in memory).
        case read
        /// A write, whose value is kept in memory and served by reads until a write succeeds, the state
        /// is reset or the container switches.
        case write
    }

    /// The key of the state.
    public let key: String
    /// Where the state lives.
    public let kind: StateKind
    /// What failed.
    public let operation: Operation
    /// Why it failed: the error the throwing form (``StateHandle/read()``, ``StateHandle/setValue(_:)``)
    /// would have thrown.
    public let error: AppStateError

    /// One line: the key, what failed, the error and what was done instead.
    public var description: String {
        switch operation {
        case .read:
            "reading \(kind) state '\(key)' failed, so its initial value stands in: \(error)"
        case .write:
            "writing \(kind) state '\(key)' failed, so the new value is kept in memory only: \(error)"
        }
    }
}
