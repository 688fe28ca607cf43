
extension ParticipationError {
    /// What kind of failure a ``ParticipationError`` is. Compare with the static members
    /// (`error.code == .refused`); a release may add codes, so a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`refused`).
        public let name: String

        private init(name: String) {
            self.name = name
        }

        /// The host's will-change hook (or a participant's flush) refused, with its message.
        public static let refused = Code(name: "refused")
        /// The host is alive (it holds its attachment lock) but did not answer in time — stopped, or stuck
        /// in a hook.
        public static let noAnswer = Code(name: "noAnswer")
        /// The host's socket could not be used.
        public static let unreachable = Code(name: "unreachable")
        /// The host serves no control API (an app built without EnvScript's `Control` trait), so it cannot
        /// take part: the change would move its data under it.
        public static let cannotTakePart = Code(name: "cannotTakePart")

        /// The ``name``.
        public var description: String { name }
    }
}
