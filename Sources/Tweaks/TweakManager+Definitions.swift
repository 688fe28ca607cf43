extension TweakManager {
    /// Whether the stack defines a flag apart from the provider a write would go to: the check that
    /// keeps a mistyped name (`buton_color`) from becoming an override nobody reads.
    package enum Definition: Equatable {
        /// A provider other than the write's target has the flag, or could not tell (it failed).
        case defined
        /// The providers other than the write's target do not have it; `near` are the flags they
        /// define that are a few edits away, as `feature.variable`, nearest first.
        case undefined(near: [String])
        /// The stack has no provider besides the write's target (the overrides alone, when no start-up
        /// script set a stack), so nothing defines any flag to check against.
        case nothingDefinesFlags
    }

    /// How the stack defines `feature.variable` apart from the provider a write to `provider` (by name,
    /// else the highest mutable one) would change.
    ///
    /// - Throws: the errors of finding that provider: ``TweakError/Code/unknownProvider``,
    ///   ``TweakError/Code/providerNotMutable``, ``TweakError/Code/noMutableProvider``.
    package func definition(feature: String, variable: String, writingTo provider: String? = nil) throws -> Definition {
        let providers = self.providers
        let target = try Self.writeTarget(named: provider, in: providers).name
        let definers = providers.filter { $0.name != target }
        guard !definers.isEmpty else { return .nothingDefinesFlags }
        for definer in definers {
            do {
                if try definer.tweak(feature: feature, variable: variable) != nil { return .defined }
            } catch {
                // A provider that cannot answer may well define it: no reason to refuse.
                return .defined
            }
        }
        return .undefined(near: Self.nearFlags(to: feature, variable: variable, in: definers))
    }

    /// The flags the stack defines a few edits away from `feature.variable`, as `feature.variable`,
    /// nearest first: what "did you mean" offers for a mistyped flag.
    package func nearFlags(to feature: String, variable: String) -> [String] {
        Self.nearFlags(to: feature, variable: variable, in: providers)
    }

    private static func nearFlags(to feature: String, variable: String, in providers: [any TweakProvider]) -> [String] {
        // The names only: nothing is opened, and a provider that cannot list offers none.
        let names = providers.flatMap { (try? $0.allTweaks()) ?? [] }.map { "\($0.feature).\($0.variable)" }
        return NearNames.suggestions(for: "\(feature).\(variable)", among: names)
    }
}
