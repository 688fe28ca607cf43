/// The flags of one flagd flag-definition file, by the tweak key each names.
struct FlagdFlagSet: Sendable {
    /// The flags.
    var flags: [TweakKey: FlagdFlag] = [:]
}
