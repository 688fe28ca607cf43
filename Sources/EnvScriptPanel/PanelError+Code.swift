extension PanelError {
    /// What kind of failure a ``PanelError`` is. Compare with the static members
    /// (`error.code == .cannotListen`); a release may add codes, so a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`cannotListen`).
        public let name: String

        private init(name: String) {
            self.name = name
        }

        /// The panel's server cannot listen on the address it was given (the port is taken, or the
        /// address is not one of this machine's); the message says why.
        public static let cannotListen = Code(name: "cannotListen")

        /// The ``name``.
        public var description: String { name }
    }
}
