import Foundation
import Testing
@testable import Tweaks

/// `TweakManager.explain`: every provider from the highest, what it said, and who won.
@Suite struct ExplainTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the server is down" }
    }

    @Test func aValueAnsweredByTheThirdProviderAfterAFailingFirstOne() throws {
        let failing = ClosureTweakProvider(name: "remote") { _, _ in throw Broken() }
        let empty = EphemeralTweakProvider(name: "overrides")
        let shipped = EphemeralTweakProvider(name: "shipped", values: ["checkout": ["color": "blue"]])
        let fallback = EphemeralTweakProvider(name: "fallback", values: ["checkout": ["color": "grey"]])
        let tweaks = TweakManager(providers: [failing, empty, shipped, fallback], cacheEnabled: true)
        _ = try tweaks.lookup(feature: "checkout", variable: "color") // fills the cache, which explain ignores

        let explanation = tweaks.explain(feature: "checkout", variable: "color")
        #expect(explanation.steps.map(\.provider) == ["remote", "overrides", "shipped", "fallback"])
        guard case .failed(let error) = explanation.steps[0].outcome else { Issue.record("\(explanation.steps[0])"); return }
        #expect("\(error)" == "the server is down")
        guard case .missing = explanation.steps[1].outcome else { Issue.record("\(explanation.steps[1])"); return }
        guard case .answered(let answer) = explanation.steps[2].outcome else { Issue.record("\(explanation.steps[2])"); return }
        #expect(answer.value == "blue" && answer.source == "shipped")
        guard case .shadowed(let below) = explanation.steps[3].outcome else { Issue.record("\(explanation.steps[3])"); return }
        #expect(below.value == "grey")
        #expect(explanation.answer?.source == "shipped")
        #expect(explanation.steps.allSatisfy { $0.openedBy == nil })
    }

    @Test func aSealedValueSaysWhichDecryptorOpenedItOrWhyItWasNot() throws {
        let reverse: TweakDecryptor = { tweak in .string(String((tweak.value.stringValue ?? "").reversed())) }
        let sealed = Tweak(feature: "api", variable: "token", value: "terces", isEncrypted: true)
        let own = EphemeralTweakProvider(name: "vault", tweaks: [sealed], decryptor: reverse)
        let opened = TweakManager(providers: [own]).explain(feature: "api", variable: "token")
        #expect(opened.answer?.value == "secret")
        #expect(opened.steps.first?.openedBy == .providerDecryptor(provider: "vault"))

        let byStack = TweakManager(providers: [EphemeralTweakProvider(name: "plain", tweaks: [sealed])])
        byStack.decryptor = reverse
        #expect(byStack.explain(feature: "api", variable: "token").steps.first?.openedBy == .stackDecryptor)

        let unopened = TweakManager(providers: [EphemeralTweakProvider(name: "plain", tweaks: [sealed])])
            .explain(feature: "api", variable: "token")
        #expect(unopened.answer == nil)
        guard case .unopened(_, let error) = unopened.steps.first?.outcome else { Issue.record("\(unopened.steps)"); return }
        #expect("\(error)".contains("api.token"))
    }

    @Test func noProviderHasIt() {
        let explanation = TweakManager(providers: [EphemeralTweakProvider(name: "a"), EphemeralTweakProvider(name: "b")])
            .explain(feature: "f", variable: "v")
        #expect(explanation.answer == nil)
        #expect(explanation.steps.count == 2)
    }
}
