extension PreferencesError {
    /// What kind of failure a ``PreferencesError`` is. Compare with the static members
    /// (`error.code == .corruptFile`); a release may add codes, so a `switch` over them needs a `default`.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`corruptFile`).
        package let name: String

        private init(name: String) {
            self.name = name
        }

        /// The file exists but is not a property list (or not the expected shape).
        package static let corruptFile = Code(name: "corruptFile")
        /// The file could not be read for a reason other than being absent.
        package static let readFailed = Code(name: "readFailed")
        /// Writing the file failed at `step` (for example "fsync" or "rename"); the previous content is intact.
        package static let writeFailed = Code(name: "writeFailed")
        /// A value could not be stored under `key` (for example a Codable value with no property-list form).
        package static let unsupportedValue = Code(name: "unsupportedValue")
        /// The value stored under `key` in `path` does not decode as the requested type.
        package static let decodingFailed = Code(name: "decodingFailed")
        /// A file store key (of file state) that cannot name a file.
        package static let invalidKey = Code(name: "invalidKey")
        /// A write was not made because the data it would change no longer exists where it was read (for
        /// example another process deleted the container); `reason` says what happened.
        package static let writeRefused = Code(name: "writeRefused")

        /// The ``name``.
        package var description: String { name }
    }
}
