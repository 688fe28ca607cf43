@testable import AppState

extension AppStateError {
    /// The name of the code, for tests that check which error was thrown: "decryptionFailed".
    var codeName: String { code.name }
}

/// The name of the ``AppStateError`` code of `error`, or a description of what else it is.
func errorCase(_ error: (any Error)?) -> String {
    guard let error else { return "no error" }
    guard let appStateError = error as? AppStateError else { return "not an AppStateError: \(error)" }
    return appStateError.codeName
}

/// Runs `body` and names the code of the ``AppStateError`` it threw.
func thrownCase(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "no error"
    } catch {
        return errorCase(error)
    }
}
