/// One flag of a flagd flag-definition file, read and compiled: immutable, shared by every evaluation.
final class FlagdFlag: Sendable {
    /// The flag's targeting, as loaded.
    enum Targeting: Sendable {
        /// No targeting (absent, or `{}`): the default variant, the same for every context.
        case none
        /// A compiled rule whose result names the variant.
        case rule(LogicExpression)
        /// A rule that cannot be evaluated (an unknown operator, a `$ref` to no evaluator), or a flag
        /// that is wrong (no variants): every evaluation is a parse error, saying this.
        case unusable(String)
    }

    /// The key the file gives the flag.
    let flagKey: String
    /// The feature and variable the key names (``TweakKey/init(flagKey:)``).
    let key: TweakKey
    /// False for `"state": "DISABLED"`.
    let isEnabled: Bool
    /// The values by variant name.
    let variants: [String: JSONValue]
    /// The variant given when targeting chooses none; nil leaves the value to the caller.
    let defaultVariant: String?
    /// The targeting.
    let targeting: Targeting
    /// The flag's metadata over its flag set's.
    let metadata: [String: JSONValue]
    /// The name of the provider whose answers these are (``Tweak/source``).
    let source: String
    /// Each variant's answer to a rule that names it (reason `TARGETING_MATCH`), made once.
    let matchedTweaks: [String: Tweak]
    /// The default variant's answer (reason `STATIC` without targeting, `DEFAULT` with it), made once;
    /// nil without a default variant.
    let defaultTweak: Tweak?

    init(
        flagKey: String, isEnabled: Bool, variants: [String: JSONValue], defaultVariant: String?, targeting: Targeting,
        metadata: [String: JSONValue], source: String
    ) {
        let key = TweakKey(flagKey: flagKey)
        self.flagKey = flagKey
        self.key = key
        self.isEnabled = isEnabled
        self.variants = variants
        self.defaultVariant = defaultVariant
        self.targeting = targeting
        self.metadata = metadata
        self.source = source
        let hasTargeting: Bool
        if case .none = targeting { hasTargeting = false } else { hasTargeting = true }
        func tweak(_ variant: String, _ value: JSONValue, _ reason: TweakReason) -> Tweak {
            Tweak(
                feature: key.feature, variable: key.variable, value: value, source: source, variant: variant, reason: reason,
                metadata: metadata, dependsOnContext: hasTargeting)
        }
        matchedTweaks = hasTargeting ? Dictionary(uniqueKeysWithValues: variants.map { ($0.key, tweak($0.key, $0.value, .targetingMatch)) }) : [:]
        defaultTweak = defaultVariant.flatMap { name in variants[name].map { tweak(name, $0, hasTargeting ? .default : .static) } }
    }

    /// Whether another context could get another answer.
    var hasTargeting: Bool {
        if case .none = targeting { return false } else { return true }
    }
}
