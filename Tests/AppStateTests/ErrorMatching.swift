@testable import AppState

extension AppStateError {
    /// The name of the case, for tests that check which error was thrown: "decryptionFailed".
    var caseName: String {
        Mirror(reflecting: self).children.first?.label ?? "\(self)"
    }
}

/// The name of the ``AppStateError`` case `error` is, or a description of what else it is.
func errorCase(_ error: (any Error)?) -> String {
    guard let error else { return "no error" }
    guard let appStateError = error as? AppStateError else { return "not an AppStateError: \(error)" }
    return appStateError.caseName
}

/// Runs `body` and names the ``AppStateError`` case it threw.
func thrownCase(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "no error"
    } catch {
        return errorCase(error)
    }
}
