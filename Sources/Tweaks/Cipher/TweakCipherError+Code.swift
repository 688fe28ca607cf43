extension TweakCipherError {
    /// What kind of failure a ``TweakCipherError`` is. Compare with the static members
    /// (`error.code == .malformed`); a release may add codes, so a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`malformed`).
        public let name: String

        private init(name: String) {
            self.name = name
        }

        /// The text is not a sealed value: it does not start with a known format tag (`es1:`), or its parts
        /// are missing or not base64.
        public static let malformed = Code(name: "malformed")
        /// The value is sealed in a format version this build does not know.
        public static let unsupportedVersion = Code(name: "unsupportedVersion")
        /// The value was sealed with a key the cipher does not have.
        public static let unknownKey = Code(name: "unknownKey")
        /// The value does not open with the key it names: the key under that id is another one, or the value
        /// was cut short or changed after sealing.
        public static let authenticationFailed = Code(name: "authenticationFailed")
        /// The opened plain text is not a tweak value (it was sealed by something other than the cipher).
        public static let invalidPlaintext = Code(name: "invalidPlaintext")
        /// A key id that is empty, too long or holds characters other than letters, digits, `.`, `_` and `-`.
        public static let invalidKeyID = Code(name: "invalidKeyID")
        /// The cipher has no key at all.
        public static let noKeys = Code(name: "noKeys")
        /// A key file or key list cannot be used; `line` is 0 when the problem is with the whole file.
        public static let invalidKeys = Code(name: "invalidKeys")
        /// A key file others may write, or read while it holds keys other than demo keys.
        public static let keyFilePermissions = Code(name: "keyFilePermissions")
        /// A key file could not be read or written.
        public static let keyFileIO = Code(name: "keyFileIO")

        /// The ``name``.
        public var description: String { name }
    }
}
