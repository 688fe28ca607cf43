/// The flags of one flagd flag-definition file, by the tweak key each names.
struct FlagdFlagSet: Sendable {
    /// The flags.
    var flags: [TweakKey: FlagdFlag] = [:]
    /// What loading let through that flagd would also let through but a reader should know: each rule
    /// that cannot be evaluated (its flag answers PARSE_ERROR), as `file:line: flag 'key': problem`.
    var warnings: [String] = []
    /// The flag set's own `metadata` (each flag's answers carry it too, under the flag's own).
    var metadata: [String: JSONValue] = [:]
}
