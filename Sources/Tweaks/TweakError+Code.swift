extension TweakError {
    /// What kind of failure a ``TweakError`` is. Compare with the static members (`error.code == .notFound`);
    /// a release may add codes, so a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`notFound`).
        public let name: String

        private init(name: String) {
            self.name = name
        }

        /// No provider has the tweak; the message lists every provider in priority order and why it did
        /// not answer, so a provider that failed (rather than lacked it) is visible.
        public static let notFound = Code(name: "notFound")
        /// The tweak exists but holds another type than the one asked for.
        public static let typeMismatch = Code(name: "typeMismatch")
        /// The tweak is a secret (sealed by its provider) and holds another type than the one asked for; the
        /// value is left out, so the message never shows it.
        public static let sealedTypeMismatch = Code(name: "sealedTypeMismatch")
        /// The tweak's structured value does not decode as the Swift type asked for; the message names the
        /// part that did not fit.
        public static let decodingFailed = Code(name: "decodingFailed")
        /// A write would change the tweak's type: another provider of the stack defines it with another
        /// type than the value given.
        public static let typeRefused = Code(name: "typeRefused")
        /// The tweak is marked `"Encrypted": true` but nothing can open it: it is not in the sealed format of a
        /// cipher the manager has, and neither its provider nor the manager has a decryptor.
        public static let decryptorMissing = Code(name: "decryptorMissing")
        /// The decryptor threw (the ``TweakError/underlyingError``) while decrypting the tweak.
        public static let decryptionFailed = Code(name: "decryptionFailed")
        /// A provider failed with the ``TweakError/underlyingError``; ``TweakError/feature`` and
        /// ``TweakError/variable`` are nil when the failure was not about one tweak.
        public static let providerFailed = Code(name: "providerFailed")
        /// A tweak JSON document (the ``TweakError/file``) is malformed or not in JustTweak's shape at
        /// ``TweakError/line`` and ``TweakError/column``; the message names the offending key when there
        /// is one.
        public static let invalidJSON = Code(name: "invalidJSON")
        /// A tweak file (the ``TweakError/file``) could not be read.
        public static let readFailed = Code(name: "readFailed")
        /// A write was asked for but no provider in the stack is mutable.
        public static let noMutableProvider = Code(name: "noMutableProvider")
        /// No provider in the stack has the name given.
        public static let unknownProvider = Code(name: "unknownProvider")
        /// The named provider cannot be written to.
        public static let providerNotMutable = Code(name: "providerNotMutable")
        /// The server answered with a status other than 200 or 304.
        public static let httpStatus = Code(name: "httpStatus")
        /// The request did not complete within the timeout.
        public static let timedOut = Code(name: "timedOut")
        /// The request failed below HTTP (connection refused, DNS, TLS...).
        public static let networkFailed = Code(name: "networkFailed")
        /// A remote provider has neither fetched its tweaks nor a kept copy to start from.
        public static let remoteNotLoaded = Code(name: "remoteNotLoaded")
        /// A remote provider was closed (its runtime closed); it fetches no more.
        public static let remoteClosed = Code(name: "remoteClosed")
        /// An evaluation context is not one (`targetingKey` not a string, not a JSON object).
        public static let invalidContext = Code(name: "invalidContext")
        /// The flag's provider gives no value for it (disabled, no default variant, targeting that cannot
        /// be evaluated): the caller's default applies. ``TweakError/defaultAnswer`` says why.
        public static let defaulted = Code(name: "defaulted")

        /// The ``name``.
        public var description: String { name }
    }
}
