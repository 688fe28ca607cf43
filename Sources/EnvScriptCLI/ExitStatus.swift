/// The exit statuses of `envscript`, shared by every command.
enum ExitStatus {
    /// Everything succeeded.
    static let success: Int32 = 0
    /// A script failed while running (or `check` found a syntax error).
    static let failure: Int32 = 1
    /// The command line was wrong, or a script or the home could not be loaded.
    static let usage: Int32 = 2
}
