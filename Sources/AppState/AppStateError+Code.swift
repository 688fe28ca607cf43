extension AppStateError {
    /// What kind of failure an ``AppStateError`` is. Compare with the static members
    /// (`error.code == .unknownKey`); a release may add codes, so a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`unknownKey`).
        public let name: String

        private init(name: String) {
            self.name = name
        }

        /// No state was declared under the ``AppStateError/key``.
        public static let unknownKey = Code(name: "unknownKey")
        /// A key may not be used: it is empty, or it cannot name a file.
        public static let invalidKey = Code(name: "invalidKey")
        /// The key was declared as one kind of state and is now asked for as another.
        public static let kindMismatch = Code(name: "kindMismatch")
        /// The key (a state key or a dependency name) holds values of another type than the one asked for.
        public static let typeMismatch = Code(name: "typeMismatch")
        /// A value could not be encoded for storage under the key.
        public static let encodingFailed = Code(name: "encodingFailed")
        /// The stored value of the key does not decode as the declared type.
        public static let decodingFailed = Code(name: "decodingFailed")
        /// The sealed value of a secure state does not open with the key in use: either the key is not the
        /// one it was written with, or the file is corrupt.
        public static let decryptionFailed = Code(name: "decryptionFailed")
        /// Secure state was used but the ``Application`` was given no ``SecureKeySource``.
        public static let secureKeyMissing = Code(name: "secureKeyMissing")
        /// The key given by the host cannot be used for AES-GCM.
        public static let invalidSecureKey = Code(name: "invalidSecureKey")
        /// The secure key file may be read by others.
        public static let keyFilePermissions = Code(name: "keyFilePermissions")
        /// The secure key file is unusable (not a regular file, wrong length, unreadable).
        public static let keyFileInvalid = Code(name: "keyFileInvalid")
        /// The secure key file lies inside the application's home, where it would be swapped with the
        /// containers and sit next to the data it protects.
        public static let keyFileInsideHome = Code(name: "keyFileInsideHome")
        /// Reading or writing a file failed.
        public static let io = Code(name: "io")
        /// The preferences store or file store holding the key failed (the ``AppStateError/underlyingError``,
        /// a `PreferencesError`).
        public static let storage = Code(name: "storage")
        /// No dependency is registered under the name (the ``AppStateError/key``).
        public static let unknownDependency = Code(name: "unknownDependency")
        /// Creating a dependency (the ``AppStateError/key``) needs itself; the message shows the chain.
        public static let dependencyCycle = Code(name: "dependencyCycle")
        /// The factory of a dependency (the ``AppStateError/key``) threw the ``AppStateError/underlyingError``.
        public static let factoryFailed = Code(name: "factoryFailed")

        /// The ``name``.
        public var description: String { name }
    }
}
