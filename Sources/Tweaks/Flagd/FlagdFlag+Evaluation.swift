/// A flagd flag's answer for an evaluation context, as flagd gives it.
extension FlagdFlag {
    /// The flag evaluated in `context`:
    /// - disabled: the caller's default, reason `DISABLED`;
    /// - no targeting: the default variant, reason `STATIC`;
    /// - targeting that names a variant (text, or a Boolean or number, named as JSON writes it):
    ///   that variant, reason `TARGETING_MATCH` (a `fractional` split included, as flagd reports it);
    /// - targeting that gives null: the default variant, reason `DEFAULT`;
    /// - no default variant where one is needed: the caller's default, reason `DEFAULT`;
    /// - a flag that cannot be evaluated (its targeting, or the flag itself, was wrong at load): the
    ///   caller's default, error `PARSE_ERROR`; a variant the
    ///   flag does not have: error `GENERAL`.
    func evaluate(in context: TweakContext) -> TweakAnswer {
        guard isEnabled else { return .callerDefault(defaultAnswer(reason: .disabled, dependsOnContext: false)) }
        switch targeting {
        case .none:
            return defaultVariantAnswer()
        case .unusable(let problem):
            return .callerDefault(defaultAnswer(
                reason: .error, errorCode: .parseError,
                errorMessage: "flag '\(flagKey)' cannot be evaluated: \(problem)"))
        case .rule(let rule):
            let result = LogicEvaluator.evaluate(rule, .context(FlagEvaluationInput(flagKey: flagKey, context: context)))
            let name: String
            switch result {
            case .null: return defaultVariantAnswer()
            case .string(let text): name = text
            case .bool(let flag): name = flag ? "true" : "false"
            case .double(let number): name = JSONValue.text(of: number)
            case .int(let number): name = String(number)
            case .array, .object:
                return .callerDefault(defaultAnswer(
                    reason: .error, errorCode: .general,
                    errorMessage: "the targeting of flag '\(flagKey)' gave \(result.textValue), which names no variant"))
            }
            guard let tweak = matchedTweaks[name] else {
                return .callerDefault(defaultAnswer(
                    reason: .error, errorCode: .general,
                    errorMessage: "the targeting of flag '\(flagKey)' chose variant '\(name)', which the flag does not have"))
            }
            return .value(tweak)
        }
    }

    /// The default variant (reason `STATIC` without targeting, `DEFAULT` with it), or the caller's
    /// default (reason `DEFAULT`) without one.
    private func defaultVariantAnswer() -> TweakAnswer {
        guard let defaultTweak else { return .callerDefault(defaultAnswer(reason: .default)) }
        return .value(defaultTweak)
    }

    /// The tweak of `variant`.
    func tweak(variant: String, value: JSONValue, reason: TweakReason) -> Tweak {
        Tweak(
            feature: key.feature, variable: key.variable, value: value, source: source, variant: variant, reason: reason,
            metadata: metadata, dependsOnContext: hasTargeting)
    }

    private func defaultAnswer(
        reason: TweakReason, errorCode: TweakErrorCode? = nil, errorMessage: String? = nil, dependsOnContext: Bool? = nil
    ) -> TweakDefaultAnswer {
        TweakDefaultAnswer(
            feature: key.feature, variable: key.variable, reason: reason, errorCode: errorCode, errorMessage: errorMessage,
            metadata: metadata, dependsOnContext: dependsOnContext ?? hasTargeting)
    }
}
