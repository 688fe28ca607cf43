extension ApplicationIDError {
    /// What kind of failure an ``ApplicationIDError`` is. Compare with the static members
    /// (`error.code == .mismatch`); a release may add codes, so a `switch` over them needs a `default`.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`mismatch`).
        package let name: String

        private init(name: String) {
            self.name = name
        }

        /// The home belongs to another application: `recorded` (in the file `record`) is not `requested`.
        package static let mismatch = Code(name: "mismatch")
        /// The identifier cannot name the application's files; `reason` says why.
        package static let invalid = Code(name: "invalid")

        /// The ``name``.
        package var description: String { name }
    }
}
