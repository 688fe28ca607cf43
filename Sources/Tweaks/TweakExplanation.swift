/// How the stack answers one tweak, provider by provider from the highest: what each one answered or
/// why it passed, which one won, and how a sealed value was opened. Made by
/// ``TweakManager/explain(feature:variable:context:)``, which asks every provider afresh (never the cache).
public struct TweakExplanation: Sendable {
    /// What one provider did.
    package enum Outcome: Sendable {
        /// It does not have the tweak.
        case missing
        /// It failed; a lower provider was asked instead.
        case failed(any Error)
        /// It answered, and its answer is the tweak's value (decrypted when it was sealed).
        case answered(Tweak)
        /// It has the tweak, but a provider above answered first.
        case shadowed(Tweak)
        /// It answered with a sealed value that could not be opened: the look-up fails with `error`.
        case unopened(Tweak, error: any Error)
        /// It has the flag and leaves the value to the caller's default (disabled, no default variant,
        /// targeting that cannot be evaluated); lower providers are not asked.
        case defaulted(TweakDefaultAnswer)
    }

    /// One provider of the stack and what it did.
    package struct Step: Sendable {
        /// The provider's name.
        package let provider: String
        /// What it did.
        package let outcome: Outcome
        /// For a sealed value that was opened: what opened it (the cipher and its key, the provider's own
        /// decryptor, or the stack's).
        package let openedBy: TweakOpener?

        /// A step.
        package init(provider: String, outcome: Outcome, openedBy: TweakOpener? = nil) {
            self.provider = provider
            self.outcome = outcome
            self.openedBy = openedBy
        }
    }

    /// The feature explained.
    public let feature: String
    /// The variable explained.
    public let variable: String
    /// Every provider of the stack, highest first.
    package let steps: [Step]

    /// An explanation.
    package init(feature: String, variable: String, steps: [Step]) {
        self.feature = feature
        self.variable = variable
        self.steps = steps
    }

    /// The tweak that answers, or nil when none does (every provider passed, or the answer could not be
    /// opened).
    package var answer: Tweak? {
        for step in steps {
            if case .answered(let tweak) = step.outcome { return tweak }
        }
        return nil
    }
}
