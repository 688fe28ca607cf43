extension PanelError {
    /// The failure with its details, one case per `Code`. `package`: the modules of this package match on
    /// it; an app uses `code` and `message`.
    package enum Reason: Sendable {
        /// The panel's server cannot listen on `address`; `reason` says why.
        case cannotListen(address: String, reason: String)
    }

    // The errors by the names of their reasons, so that `throw PanelError.cannotListen(...)` reads as the
    // reason it throws.

    package static func cannotListen(address: String, reason: String) -> Self { Self(.cannotListen(address: address, reason: reason)) }
}
