/// One flag of a flagd flag-definition file, read and compiled: immutable, shared by every evaluation.
final class FlagdFlag: Sendable {
    /// The flag's targeting, as loaded.
    enum Targeting: Sendable {
        /// No targeting (absent, or `{}`): the default variant, the same for every context.
        case none
        /// A compiled rule whose result names the variant.
        case rule(LogicExpression)
        /// A rule that cannot be evaluated (an unknown operator, a `$ref` to no evaluator): every
        /// evaluation is a parse error, saying this.
        case unusable(String)
    }

    /// The key the file gives the flag.
    let flagKey: String
    /// The feature and variable the key names (``TweakKey/init(flagKey:)``).
    let key: TweakKey
    /// False for `"state": "DISABLED"`.
    let isEnabled: Bool
    /// The values by variant name.
    let variants: [String: TweakValue]
    /// The variant given when targeting chooses none; nil leaves the value to the caller.
    let defaultVariant: String?
    /// The targeting.
    let targeting: Targeting
    /// The flag's metadata over its flag set's.
    let metadata: [String: TweakValue]

    init(
        flagKey: String, isEnabled: Bool, variants: [String: TweakValue], defaultVariant: String?, targeting: Targeting,
        metadata: [String: TweakValue]
    ) {
        self.flagKey = flagKey
        self.key = TweakKey(flagKey: flagKey)
        self.isEnabled = isEnabled
        self.variants = variants
        self.defaultVariant = defaultVariant
        self.targeting = targeting
        self.metadata = metadata
    }

    /// Whether another context could get another answer.
    var hasTargeting: Bool {
        if case .none = targeting { return false } else { return true }
    }
}
