extension TweakError {
    /// The failure with its details, one case per `Code`. `package`: the engines and front-ends of this
    /// package match on it; an app uses `code`, `message` and the public details.
    package enum Reason: Sendable {
        /// No provider has the tweak. `misses` lists every provider in priority order and why it did not
        /// answer, so a provider that failed (rather than lacked it) is visible.
        case notFound(feature: String, variable: String, misses: [TweakProviderMiss])
        /// The tweak exists but holds another type than the one asked for.
        case typeMismatch(feature: String, variable: String, expected: String, found: JSONValue, source: String)
        /// The tweak is a secret (sealed by its provider) and holds another type than the one asked for; the
        /// value is left out, so the message never shows it.
        case sealedTypeMismatch(feature: String, variable: String, expected: String, foundType: String, source: String)
        /// The tweak's structured value does not decode as the Swift type asked for; `field` is the coding
        /// path of the part that did not fit (empty for the whole value).
        case decodingFailed(feature: String, variable: String, type: String, field: String, reason: String, source: String)
        /// A write would change the tweak's type: another provider of the stack (`definedBy`) defines it as
        /// `expected`, and `given` is of another type.
        case typeRefused(feature: String, variable: String, expected: String, given: JSONValue, definedBy: String)
        /// The tweak is marked `"Encrypted": true` but nothing can open it: it is not in the sealed format of a
        /// cipher the manager has, and neither its provider nor the manager has a decryptor.
        case decryptorMissing(feature: String, variable: String, source: String)
        /// The decryptor threw while decrypting the tweak.
        case decryptionFailed(feature: String, variable: String, source: String, underlying: any Error)
        /// A provider failed; `feature` and `variable` are nil when the failure was not about one tweak.
        case providerFailed(provider: String, feature: String?, variable: String?, underlying: any Error)
        /// A tweak JSON document is malformed or not in JustTweak's shape. `file` is a path or URL, `line` and
        /// `column` count from 1, `key` is the dotted path of the offending key when there is one.
        case invalidJSON(file: String, line: Int, column: Int, key: String?, reason: String)
        /// A tweak file could not be read.
        case readFailed(file: String, reason: String)
        /// A write was asked for but no provider in the stack is mutable.
        case noMutableProvider(available: [String])
        /// No provider in the stack has this name.
        case unknownProvider(name: String, available: [String])
        /// The named provider cannot be written to.
        case providerNotMutable(name: String)
        /// The server answered with a status other than 200 or 304.
        case httpStatus(url: String, status: Int)
        /// The request did not complete within the timeout.
        case timedOut(url: String, seconds: Double)
        /// The request failed below HTTP (connection refused, DNS, TLS...).
        case networkFailed(url: String, reason: String)
        /// A remote provider has neither fetched its tweaks nor a kept copy to start from.
        case remoteNotLoaded(url: String)
        /// A remote provider was closed (its runtime closed); it fetches no more.
        case remoteClosed(url: String)
        /// An evaluation context (JSON from the command line, the control API, OFREP or Lua) is not one;
        /// `problem` says what is wrong with it.
        case invalidContext(problem: String)
        /// Provider `source` has the flag and leaves the value to the caller's default (disabled, no
        /// default variant, targeting that cannot be evaluated): `answer` says why.
        case defaulted(answer: TweakDefaultAnswer, source: String)
    }

    // The errors by the names of their reasons, so that `throw TweakError.notFound(...)` reads as the
    // reason it throws.

    package static func defaulted(_ answer: TweakDefaultAnswer, source: String) -> Self {
        Self(.defaulted(answer: answer, source: source))
    }
    package static func invalidContext(_ problem: String) -> Self {
        Self(.invalidContext(problem: problem))
    }
    package static func notFound(feature: String, variable: String, misses: [TweakProviderMiss]) -> Self {
        Self(.notFound(feature: feature, variable: variable, misses: misses))
    }
    package static func typeMismatch(feature: String, variable: String, expected: String, found: JSONValue, source: String) -> Self {
        Self(.typeMismatch(feature: feature, variable: variable, expected: expected, found: found, source: source))
    }
    package static func sealedTypeMismatch(feature: String, variable: String, expected: String, foundType: String, source: String) -> Self {
        Self(.sealedTypeMismatch(feature: feature, variable: variable, expected: expected, foundType: foundType, source: source))
    }
    package static func decodingFailed(
        feature: String, variable: String, type: String, field: String, reason: String, source: String
    ) -> Self {
        Self(.decodingFailed(feature: feature, variable: variable, type: type, field: field, reason: reason, source: source))
    }
    package static func typeRefused(feature: String, variable: String, expected: String, given: JSONValue, definedBy: String) -> Self {
        Self(.typeRefused(feature: feature, variable: variable, expected: expected, given: given, definedBy: definedBy))
    }
    package static func decryptorMissing(feature: String, variable: String, source: String) -> Self {
        Self(.decryptorMissing(feature: feature, variable: variable, source: source))
    }
    package static func decryptionFailed(feature: String, variable: String, source: String, underlying: any Error) -> Self {
        Self(.decryptionFailed(feature: feature, variable: variable, source: source, underlying: underlying))
    }
    package static func providerFailed(provider: String, feature: String?, variable: String?, underlying: any Error) -> Self {
        Self(.providerFailed(provider: provider, feature: feature, variable: variable, underlying: underlying))
    }
    package static func invalidJSON(file: String, line: Int, column: Int, key: String?, reason: String) -> Self {
        Self(.invalidJSON(file: file, line: line, column: column, key: key, reason: reason))
    }
    package static func readFailed(file: String, reason: String) -> Self { Self(.readFailed(file: file, reason: reason)) }
    package static func noMutableProvider(available: [String]) -> Self { Self(.noMutableProvider(available: available)) }
    package static func unknownProvider(name: String, available: [String]) -> Self {
        Self(.unknownProvider(name: name, available: available))
    }
    package static func providerNotMutable(name: String) -> Self { Self(.providerNotMutable(name: name)) }
    package static func httpStatus(url: String, status: Int) -> Self { Self(.httpStatus(url: url, status: status)) }
    package static func timedOut(url: String, seconds: Double) -> Self { Self(.timedOut(url: url, seconds: seconds)) }
    package static func networkFailed(url: String, reason: String) -> Self { Self(.networkFailed(url: url, reason: reason)) }
    package static func remoteNotLoaded(url: String) -> Self { Self(.remoteNotLoaded(url: url)) }
    package static func remoteClosed(url: String) -> Self { Self(.remoteClosed(url: url)) }
}
