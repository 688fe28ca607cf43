import Foundation
import Testing

/// Waits for `condition`, checking every 20 ms; records an issue naming `what` and returns false
/// (rather than hanging) when it does not hold within `timeout`.
@discardableResult
package func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: () throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try !condition() {
        if clock.now > deadline {
            Issue.record("timed out waiting until \(what)")
            return false
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    return true
}

