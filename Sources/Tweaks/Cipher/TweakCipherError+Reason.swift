extension TweakCipherError {
    /// The failure with its details, one case per `Code`. `package`: the modules of this package match on
    /// it; an app uses `code` and `message`.
    package enum Reason: Sendable, Equatable {
        /// The text is not a sealed value: it does not start with a known format tag (`es1:`), or its parts
        /// are missing or not base64.
        case malformed(reason: String)
        /// The value is sealed in a format version this build does not know.
        case unsupportedVersion(String)
        /// The value was sealed with a key the cipher does not have.
        case unknownKey(id: String, known: [String])
        /// The value does not open with the key it names: the key under that id is another one, or the value
        /// was cut short or changed after sealing.
        case authenticationFailed(keyID: String)
        /// The opened plain text is not a tweak value (it was sealed by something other than the cipher).
        case invalidPlaintext(keyID: String)
        /// A key id that is empty, too long or holds characters other than letters, digits, `.`, `_` and `-`.
        case invalidKeyID(String)
        /// The cipher has no key at all.
        case noKeys
        /// A key file or key list cannot be used; `line` is 0 when the problem is with the whole file.
        case invalidKeys(origin: String, line: Int, reason: String)
        /// A key file others may write, or read while it holds keys other than demo keys.
        case keyFilePermissions(path: String, mode: UInt32)
        /// A key file could not be read or written.
        case keyFileIO(path: String, operation: String, reason: String)
    }

    // The errors by the names of their reasons, so that `throw TweakCipherError.malformed(...)` reads as the
    // reason it throws.

    package static func malformed(reason: String) -> Self { Self(.malformed(reason: reason)) }
    package static func unsupportedVersion(_ value0: String) -> Self { Self(.unsupportedVersion(value0)) }
    package static func unknownKey(id: String, known: [String]) -> Self { Self(.unknownKey(id: id, known: known)) }
    package static func authenticationFailed(keyID: String) -> Self { Self(.authenticationFailed(keyID: keyID)) }
    package static func invalidPlaintext(keyID: String) -> Self { Self(.invalidPlaintext(keyID: keyID)) }
    package static func invalidKeyID(_ value0: String) -> Self { Self(.invalidKeyID(value0)) }
    package static var noKeys: Self { Self(.noKeys) }
    package static func invalidKeys(origin: String, line: Int, reason: String) -> Self { Self(.invalidKeys(origin: origin, line: line, reason: reason)) }
    package static func keyFilePermissions(path: String, mode: UInt32) -> Self { Self(.keyFilePermissions(path: path, mode: mode)) }
    package static func keyFileIO(path: String, operation: String, reason: String) -> Self { Self(.keyFileIO(path: path, operation: operation, reason: reason)) }
}
