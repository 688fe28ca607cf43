/// Why a lookup gave the value it gave, in OpenFeature's words (`STATIC`, `TARGETING_MATCH`, ...).
///
/// A struct rather than a closed enum, as in OpenFeature: providers may give reasons of their own, and
/// a later release may add some.
public struct TweakReason: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The reason as OpenFeature and OFREP spell it.
    public let rawValue: String

    /// A reason spelled `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The value is the flag's own, the same for every context.
    public static let `static` = TweakReason(rawValue: "STATIC")
    /// A targeting rule chose the value for this context.
    package static let targetingMatch = TweakReason(rawValue: "TARGETING_MATCH")
    /// A percentage split (`fractional`) chose the value for this context.
    public static let split = TweakReason(rawValue: "SPLIT")
    /// The flag's default: it has targeting, and no rule chose a value for this context.
    public static let `default` = TweakReason(rawValue: "DEFAULT")
    /// The flag is switched off; the caller's default applies.
    public static let disabled = TweakReason(rawValue: "DISABLED")
    /// The value came from a cache.
    package static let cached = TweakReason(rawValue: "CACHED")
    /// The value came from a kept copy that was evaluated for another context.
    package static let stale = TweakReason(rawValue: "STALE")
    /// The lookup failed; the caller's default applies and the error code says why.
    public static let error = TweakReason(rawValue: "ERROR")
    /// The provider gave no reason.
    public static let unknown = TweakReason(rawValue: "UNKNOWN")

    public var description: String { rawValue }
}
