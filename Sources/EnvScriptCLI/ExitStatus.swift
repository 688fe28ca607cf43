/// The exit statuses of `envscript`, shared by every command.
enum ExitStatus {
    /// Everything succeeded.
    static let success: Int32 = 0
    /// A script or a scenario failed while running (a scenario file at its top level included), or an
    /// operation was refused.
    static let failure: Int32 = 1
    /// The command line was wrong, a script could not be read or compiled, the home could not be
    /// used, or a report could not be written.
    static let usage: Int32 = 2
}
