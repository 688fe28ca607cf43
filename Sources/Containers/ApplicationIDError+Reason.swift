extension ApplicationIDError {
    /// The failure with its details, one case per `Code`. `package`: the modules of this package match on
    /// it; an app uses `code` and `message`.
    package enum Reason: Sendable, Equatable {
        /// The home belongs to another application: `recorded` (in the file `record`) is not `requested`.
        case mismatch(home: String, recorded: String, requested: String, record: String)
        /// The identifier cannot name the application's files; `reason` says why.
        case invalid(String, reason: String)
    }

    // The errors by the names of their reasons, so that `throw ApplicationIDError.mismatch(...)` reads as the
    // reason it throws.

    package static func mismatch(home: String, recorded: String, requested: String, record: String) -> Self { Self(.mismatch(home: home, recorded: recorded, requested: requested, record: record)) }
    package static func invalid(_ value0: String, reason: String) -> Self { Self(.invalid(value0, reason: reason)) }
}
