
extension ParticipationError {
    /// What kind of failure a ``ParticipationError`` is. Compare with the static members
    /// (`error.code == .refused`); a release may add codes, so a `switch` over them needs a `default`.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`refused`).
        package let name: String

        private init(name: String) {
            self.name = name
        }

        /// The host's will-change hook (or a participant's flush) refused, with its message.
        package static let refused = Code(name: "refused")
        /// The host is alive (it holds its attachment lock) but did not answer in time — stopped, or stuck
        /// in a hook.
        package static let noAnswer = Code(name: "noAnswer")
        /// The host's socket could not be used.
        package static let unreachable = Code(name: "unreachable")
        /// The host serves no control API (an app built without EnvScript's `Control` trait), so it cannot
        /// take part: the change would move its data under it.
        package static let cannotTakePart = Code(name: "cannotTakePart")

        /// The ``name``.
        package var description: String { name }
    }
}
