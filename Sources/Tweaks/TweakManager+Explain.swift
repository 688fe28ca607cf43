/// Explaining an answer: every provider of the stack, what it said, and who won.
extension TweakManager {
    /// How the stack answers `feature.variable` now: each provider from the highest, what it answered or
    /// why it passed, the winner, the providers below it that also have the tweak, and which decryptor
    /// opened a sealed value. Asks every provider afresh, in `context` merged over the task's and the
    /// global one, as ``lookup(feature:variable:context:)`` does; the cache is neither read nor filled.
    public func explain(feature: String, variable: String, context: TweakContext = .empty) -> TweakExplanation {
        let stack = currentStack()
        defer { withExtendedLifetime(stack) {} }
        let (providers, stackDecryptor, cipher) = (stack.providers, stack.decryptor, stack.cipher)
        let effective = effectiveContext(context)
        var steps: [TweakExplanation.Step] = []
        var decided = false
        for provider in providers {
            let answer: TweakAnswer?
            do {
                answer = try provider.evaluate(feature: feature, variable: variable, context: effective)
            } catch {
                steps.append(.init(provider: provider.name, outcome: .failed(error)))
                continue
            }
            var tweak: Tweak
            switch answer {
            case nil:
                steps.append(.init(provider: provider.name, outcome: .missing))
                continue
            case .callerDefault(let defaulted)?:
                steps.append(.init(provider: provider.name, outcome: .defaulted(defaulted)))
                decided = true
                continue
            case .value(let found)?:
                tweak = found
            }
            tweak.source = provider.name
            if decided {
                // Shown as the provider holds it: a shadowed sealed value is not opened.
                steps.append(.init(provider: provider.name, outcome: .shadowed(tweak)))
                continue
            }
            decided = true
            do {
                let opened = try Self.opened(tweak, own: provider.decryptor, stack: stackDecryptor, cipher: cipher)
                steps.append(.init(provider: provider.name, outcome: .answered(opened.tweak), openedBy: opened.openedBy))
            } catch {
                steps.append(.init(provider: provider.name, outcome: .unopened(tweak, error: error)))
            }
        }
        return TweakExplanation(feature: feature, variable: variable, steps: steps)
    }
}
