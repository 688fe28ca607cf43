/// Why one provider did not supply a tweak.
public struct TweakProviderMiss: Sendable, CustomStringConvertible {
    /// The reason a provider passed.
    public enum Reason: Sendable {
        /// The provider does not have the tweak.
        case missing
        /// The provider failed; a lower provider was asked instead.
        case failed(any Error)
    }

    /// The provider's name.
    public let provider: String
    /// Why it did not answer.
    public let reason: Reason

    /// Creates a miss record.
    package init(provider: String, reason: Reason) {
        self.provider = provider
        self.reason = reason
    }

    /// The error when the provider failed, else nil.
    public var error: (any Error)? {
        if case .failed(let error) = reason { return error } else { return nil }
    }

    /// "name: missing" or "name: failed: error".
    public var description: String {
        switch reason {
        case .missing: return "\(provider): missing"
        case .failed(let error): return "\(provider): failed: \(error)"
        }
    }
}

/// The answer of ``TweakManager/lookup(feature:variable:context:)``: the tweak, who supplied it, and why each
/// provider above it did not.
public struct TweakLookup: Sendable {
    /// The tweak, decrypted, with ``Tweak/source`` naming the provider.
    public let tweak: Tweak
    /// The providers above the source, highest first, each with why it passed.
    public let misses: [TweakProviderMiss]
    /// True when the answer came from the manager's cache.
    package let isCached: Bool

    /// Creates a lookup result.
    package init(tweak: Tweak, misses: [TweakProviderMiss], isCached: Bool = false) {
        self.tweak = tweak
        self.misses = misses
        self.isCached = isCached
    }

    /// The value of the tweak.
    public var value: JSONValue { tweak.value }
    /// The name of the provider that supplied the tweak.
    public var source: String { tweak.source }
    /// The failures of providers above the source: non-empty means a higher provider might have answered
    /// differently had it worked.
    public var failures: [TweakProviderMiss] { misses.filter { $0.error != nil } }
}

/// All tweaks of a stack merged by priority, and the providers that could not list theirs.
public struct TweakList: Sendable {
    /// One tweak per feature and variable, from the highest provider that has it, sorted by feature then
    /// variable. A tweak that could not be decrypted stays with ``Tweak/isEncrypted`` true.
    public let tweaks: [Tweak]
    /// Providers that failed to list, and tweaks that failed to decrypt.
    public let failures: [TweakProviderMiss]

    /// Creates a list.
    package init(tweaks: [Tweak], failures: [TweakProviderMiss]) {
        self.tweaks = tweaks
        self.failures = failures
    }

    /// Why `tweak`, listed still encrypted, could not be opened: the decryptor's or cipher's own error
    /// for ``TweakError/Code/decryptionFailed``, else the failure itself
    /// (``TweakError/Code/decryptorMissing``); nil when none is recorded.
    package func openingFailure(of tweak: Tweak) -> (any Error)? {
        for failure in failures {
            guard let error = failure.error as? TweakError else { continue }
            switch error.reason {
            case .decryptionFailed(tweak.feature, tweak.variable, tweak.source, let underlying): return underlying
            case .decryptorMissing(tweak.feature, tweak.variable, tweak.source): return error
            default: continue
            }
        }
        return nil
    }
}
