/// Why a lookup fell back to the caller's default, in OpenFeature's words (`FLAG_NOT_FOUND`, ...): the
/// error code of a ``TweakResolution`` and of an OFREP answer.
public struct TweakErrorCode: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The code as OpenFeature and OFREP spell it.
    public let rawValue: String

    /// A code spelled `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// No provider of the stack has the flag.
    public static let flagNotFound = TweakErrorCode(rawValue: "FLAG_NOT_FOUND")
    /// The flag's value is not of the type asked for.
    public static let typeMismatch = TweakErrorCode(rawValue: "TYPE_MISMATCH")
    /// The flag's definition or targeting could not be read.
    public static let parseError = TweakErrorCode(rawValue: "PARSE_ERROR")
    /// The flag's targeting needs a targeting key and the context has none.
    public static let targetingKeyMissing = TweakErrorCode(rawValue: "TARGETING_KEY_MISSING")
    /// The context does not fit the flag's targeting.
    public static let invalidContext = TweakErrorCode(rawValue: "INVALID_CONTEXT")
    /// The provider has no answer yet (a remote service not reached, a copy for another context).
    public static let providerNotReady = TweakErrorCode(rawValue: "PROVIDER_NOT_READY")
    /// Any other failure.
    public static let general = TweakErrorCode(rawValue: "GENERAL")

    public var description: String { rawValue }
}
