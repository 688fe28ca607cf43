package import JSONValues
package import Tweaks

/// An explanation as `envscript tweak explain --json` (and Lua's `tweak.explain`) show it:
/// `{"feature", "variable", "answer": {tweak} | null, "steps": [{"provider", "outcome", ...}]}`.
package struct TweakExplanationPayload: Encodable, Sendable {
    /// One provider: `outcome` is `missing`, `failed`, `answered`, `shadowed` or `unopened`; `value` is
    /// there when it has the tweak (the ciphertext for a sealed value it did not open), `error` when it
    /// failed, `opened_by` when it answered with a sealed value that was opened, and `key_id` when the value
    /// is sealed with the built-in cipher (the key that opened it, or the key it names and that did not).
    package struct Step: Encodable, Sendable {
        /// The provider's name.
        package let provider: String
        /// `missing`, `failed`, `answered`, `shadowed` or `unopened`.
        package let outcome: String
        /// The provider's value, when it has the tweak (the ciphertext for a sealed value it did not open).
        package let value: JSONValue?
        /// Whether the provider's value is sealed.
        package let sealed: Bool
        /// What went wrong, when the provider failed.
        package let error: String?
        /// Who opened the sealed value the provider answered with: a decryptor's name or the cipher's.
        package let openedBy: String?
        /// The key of the built-in cipher that opened the value, or that it names and did not open it.
        package let keyID: String?

        init(_ step: TweakExplanation.Step) {
            provider = step.provider
            openedBy = step.openedBy?.description
            switch step.outcome {
            case .missing: (outcome, value, sealed, error) = ("missing", nil, false, nil)
            case .failed(let failure): (outcome, value, sealed, error) = ("failed", nil, false, "\(failure)")
            case .answered(let tweak): (outcome, value, sealed, error) = ("answered", tweak.value, tweak.isSealed, nil)
            case .shadowed(let tweak): (outcome, value, sealed, error) = ("shadowed", tweak.value, tweak.isSealed, nil)
            case .unopened(let tweak, let failure): (outcome, value, sealed, error) = ("unopened", tweak.value, true, "\(failure)")
            case .defaulted(let answer):
                (outcome, value, sealed, error) = ("defaulted", nil, false, answer.errorMessage ?? answer.errorCode?.rawValue ?? answer.reason.rawValue)
            }
            switch (step.openedBy, step.outcome) {
            case (.cipher(let id)?, _): keyID = id
            case (_, .unopened(let tweak, _)): keyID = tweak.value.stringValue.flatMap { try? TweakCipher.keyID(of: $0) }
            default: keyID = nil
            }
        }

        enum CodingKeys: String, CodingKey {
            case provider, outcome, value, sealed, error
            case openedBy = "opened_by"
            case keyID = "key_id"
        }
    }

    /// The feature explained.
    package let feature: String
    /// The variable explained.
    package let variable: String
    /// The tweak the stack answers with, or nil when no provider answers.
    package let answer: TweakPayload?
    /// Every provider of the stack, highest first.
    package let steps: [Step]

    /// The payload of `explanation`.
    package init(_ explanation: TweakExplanation) {
        feature = explanation.feature
        variable = explanation.variable
        answer = explanation.answer.map(TweakPayload.init)
        steps = explanation.steps.map(Step.init)
    }

    private enum CodingKeys: String, CodingKey { case feature, variable, answer, steps }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feature, forKey: .feature)
        try container.encode(variable, forKey: .variable)
        try container.encode(answer, forKey: .answer) // null when no provider answers
        try container.encode(steps, forKey: .steps)
    }
}
