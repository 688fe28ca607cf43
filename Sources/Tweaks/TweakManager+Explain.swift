/// Explaining an answer: every provider of the stack, what it said, and who won.
extension TweakManager {
    /// How the stack answers `feature.variable` now: each provider from the highest, what it answered or
    /// why it passed, the winner, the providers below it that also have the tweak, and which decryptor
    /// opened a sealed value. Asks every provider afresh; the cache is neither read nor filled.
    public func explain(feature: String, variable: String) -> TweakExplanation {
        let (providers, stackDecryptor) = (self.providers, decryptor)
        var steps: [TweakExplanation.Step] = []
        var decided = false
        for provider in providers {
            let found: Tweak?
            do {
                found = try provider.tweak(feature: feature, variable: variable)
            } catch {
                steps.append(.init(provider: provider.name, outcome: .failed(error)))
                continue
            }
            guard var tweak = found else {
                steps.append(.init(provider: provider.name, outcome: .missing))
                continue
            }
            tweak.source = provider.name
            let opener = provider.decryptor.map { _ in "provider '\(provider.name)'" } ?? stackDecryptor.map { _ in "the manager" }
            if decided {
                // Shown as the provider holds it: a shadowed sealed value is not opened.
                steps.append(.init(provider: provider.name, outcome: .shadowed(tweak)))
                continue
            }
            decided = true
            do {
                let opened = try Self.decrypted(tweak, with: provider.decryptor ?? stackDecryptor)
                steps.append(.init(provider: provider.name, outcome: .answered(opened), openedBy: tweak.isEncrypted ? opener : nil))
            } catch {
                steps.append(.init(provider: provider.name, outcome: .unopened(tweak, error: error)))
            }
        }
        return TweakExplanation(feature: feature, variable: variable, steps: steps)
    }
}
