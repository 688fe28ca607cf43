package import JSONValues
package import Tweaks

/// A tweak as the control API and `envscript tweak ... --json` show it: `feature, variable, value,
/// source, reason, encrypted, sealed`, and `title`, `group`, `description`, `variant`, `metadata` when
/// the provider has them.
package struct TweakPayload: Encodable, Sendable {
    /// The feature the tweak belongs to.
    package let feature: String
    /// The tweak's variable within its feature.
    package let variable: String
    /// The tweak's value.
    package let value: JSONValue
    /// The name of the provider that answered.
    package let source: String
    /// A title for people, when the provider has one.
    package let title: String?
    /// The group the tweak is shown in, when the provider has one.
    package let group: String?
    /// What the tweak does, when the provider says.
    package let description: String?
    /// True only for a tweak listed while it could not be decrypted (its value is then the ciphertext).
    package let encrypted: Bool
    /// True for a secret: a value its provider holds sealed, decrypted or not. Displays mask it.
    package let sealed: Bool
    /// Why this value, in OpenFeature's words (`STATIC`, `TARGETING_MATCH`, ...).
    package let reason: String
    /// The value's name among the flag's variants, when its provider names them.
    package let variant: String?
    /// The flag's metadata; nil when it has none.
    package let metadata: [String: JSONValue]?

    /// The payload of `tweak`.
    package init(_ tweak: Tweak) {
        feature = tweak.feature
        variable = tweak.variable
        value = tweak.value
        source = tweak.source
        title = tweak.title
        group = tweak.group
        description = tweak.description
        encrypted = tweak.isEncrypted
        sealed = tweak.isSealed
        reason = tweak.reason.rawValue
        variant = tweak.variant
        metadata = tweak.metadata.isEmpty ? nil : tweak.metadata
    }
}

/// Why a provider did not supply a tweak: `{"provider", "reason": "missing" | "failed", "message"}`.
package struct ProviderMissPayload: Encodable, Sendable {
    package let provider: String
    package let reason: String
    /// The failure, for `failed`; absent for `missing`.
    package let message: String?

    package init(_ miss: TweakProviderMiss) {
        provider = miss.provider
        switch miss.reason {
        case .missing:
            reason = "missing"
            message = nil
        case .failed(let error):
            reason = "failed"
            message = "\(error)"
        }
    }
}

/// `{"tweaks": [...], "failures": [...]}`: the merged tweaks of the stack and the providers that could
/// not list theirs (or tweaks that could not be decrypted).
package struct TweakListPayload: Encodable, Sendable {
    package let tweaks: [TweakPayload]
    package let failures: [ProviderMissPayload]

    package init(_ list: TweakList) {
        tweaks = list.tweaks.map(TweakPayload.init)
        failures = list.failures.map(ProviderMissPayload.init)
    }
}

/// A lookup: the tweak's fields, plus `misses` (every provider above the source and why it passed),
/// `failures` (those of them that failed rather than lacked it) and `cached`.
package struct TweakDetailsPayload: Encodable, Sendable {
    package let tweak: TweakPayload
    package let misses: [ProviderMissPayload]
    package let failures: [ProviderMissPayload]
    package let cached: Bool

    package init(_ lookup: TweakLookup) {
        tweak = TweakPayload(lookup.tweak)
        misses = lookup.misses.map(ProviderMissPayload.init)
        failures = lookup.failures.map(ProviderMissPayload.init)
        cached = lookup.isCached
    }

    private enum CodingKeys: String, CodingKey { case misses, failures, cached }

    /// The tweak's fields at the top level, beside the lookup's.
    package func encode(to encoder: any Encoder) throws {
        try tweak.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(misses, forKey: .misses)
        try container.encode(failures, forKey: .failures)
        try container.encode(cached, forKey: .cached)
    }
}

/// The answer of a delete: the tweak deleted and the one in effect now (`null` when no provider has it).
package struct TweakDeletedPayload: Encodable, Sendable {
    package let feature: String
    package let variable: String
    package let now: TweakDetailsPayload?

    package init(feature: String, variable: String, now: TweakDetailsPayload?) {
        self.feature = feature
        self.variable = variable
        self.now = now
    }

    private enum CodingKeys: String, CodingKey { case feature, variable, now }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feature, forKey: .feature)
        try container.encode(variable, forKey: .variable)
        try container.encode(now, forKey: .now) // `null`, not absent: "nothing is in effect" is the answer
    }
}

/// `{"overrides": [...]}`: the overrides of the active container, from every overrides provider of the stack.
package struct OverridesPayload: Encodable, Sendable {
    package let overrides: [TweakPayload]

    package init(overrides: [TweakPayload]) {
        self.overrides = overrides
    }
}

/// `{"removed": N, "providers": [...]}`: how many overrides were removed, from which providers.
package struct OverridesRemovedPayload: Encodable, Sendable {
    package let removed: Int
    package let providers: [String]

    package init(removed: Int, providers: [String]) {
        self.removed = removed
        self.providers = providers
    }
}
