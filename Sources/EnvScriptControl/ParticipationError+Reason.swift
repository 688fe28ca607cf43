
extension ParticipationError {
    /// The failure with its details, one case per `Code`. `package`: the modules of this package match on
    /// it; an app uses `code` and `message`.
    package enum Reason: Sendable {
        /// The host's will-change hook (or a participant's flush) refused, with its message.
        case refused(pid: Int32, message: String)
        /// The host is alive (it holds its attachment lock) but did not answer in time — stopped, or stuck
        /// in a hook.
        case noAnswer(pid: Int32, seconds: Double)
        /// The host's socket could not be used.
        case unreachable(pid: Int32, socket: String, reason: String)
        /// The host serves no control API (an app built without EnvScript's `Control` trait), so it cannot
        /// take part: the change would move its data under it.
        case cannotTakePart(pid: Int32, program: String)
    }

    // The errors by the names of their reasons, so that `throw ParticipationError.refused(...)` reads as the
    // reason it throws.

    package static func refused(pid: Int32, message: String) -> Self { Self(.refused(pid: pid, message: message)) }
    package static func noAnswer(pid: Int32, seconds: Double) -> Self { Self(.noAnswer(pid: pid, seconds: seconds)) }
    package static func unreachable(pid: Int32, socket: String, reason: String) -> Self { Self(.unreachable(pid: pid, socket: socket, reason: reason)) }
    package static func cannotTakePart(pid: Int32, program: String) -> Self { Self(.cannotTakePart(pid: pid, program: program)) }
}
