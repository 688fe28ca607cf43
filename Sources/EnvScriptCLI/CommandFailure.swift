/// An error that ends a command with a given exit status, after its message has been printed.
struct CommandFailure: Error {
    /// What to print on standard error (may be empty when already printed).
    var message: String
    /// The process's exit status.
    var status: Int32

    /// A failure of a script run: status 1.
    static func failure(_ message: String) -> CommandFailure { CommandFailure(message: message, status: ExitStatus.failure) }
    /// A usage or load error: status 2.
    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: ExitStatus.usage) }
}
