extension ArchiveError {
    /// What kind of failure an ``ArchiveError`` is. Compare with the static members
    /// (`error.code == .unreadable`); a release may add codes, so a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`unreadable`).
        public let name: String

        private init(name: String) {
            self.name = name
        }

        /// The file is not a zip archive this version can read (missing, truncated or damaged).
        public static let unreadable = Code(name: "unreadable")
        /// The zip archive holds no usable manifest.
        public static let badManifest = Code(name: "badManifest")
        /// An entry is refused; `reason` says why.
        public static let refusedEntry = Code(name: "refusedEntry")
        /// The archive is past a limit of the import.
        public static let overLimit = Code(name: "overLimit")
        /// The archive cannot be written where it was asked for: `path` names a folder, or a folder that
        /// does not exist.
        public static let unwritable = Code(name: "unwritable")
        /// Writing the archive failed: the system refused a write (no space left on the device, a read-only
        /// file system, no permission...); `reason` says what happened, in words. Nothing at `path` changed:
        /// no partial archive was left there.
        public static let writeFailed = Code(name: "writeFailed")

        /// The ``name``.
        public var description: String { name }
    }
}
