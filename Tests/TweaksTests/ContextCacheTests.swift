import Synchronization
import Testing
import Tweaks

/// The cache keeps only answers that are the same in every context.
@Suite struct ContextCacheTests {
    /// A provider that counts its calls; `targeted` answers by the context's country, the rest statically.
    final class Rules: TweakProvider {
        let name = "rules"
        let calls = Atomic<Int>(0)
        func tweak(feature: String, variable: String) throws -> Tweak? {
            try evaluate(feature: feature, variable: variable, context: .empty).flatMap {
                if case .value(let tweak) = $0 { tweak } else { nil }
            }
        }
        func evaluate(feature: String, variable: String, context: TweakContext) throws -> TweakAnswer? {
            calls.add(1, ordering: .relaxed)
            switch feature {
            case "targeted":
                let country = context.attributes["country"]?.stringValue ?? "none"
                return .value(Tweak(feature: feature, variable: variable, value: .string(country), reason: .targetingMatch, dependsOnContext: true))
            case "static":
                return .value(Tweak(feature: feature, variable: variable, value: 1))
            case "off":
                return .callerDefault(TweakDefaultAnswer(feature: feature, variable: variable, reason: .disabled))
            default:
                return nil
            }
        }
        func allTweaks() throws -> [Tweak] { [] }
        var count: Int { calls.load(ordering: .relaxed) }
    }

    @Test func aStaticAnswerIsCachedAndATargetedOneIsAskedEachTime() throws {
        let rules = Rules()
        let manager = TweakManager(providers: [rules], cacheEnabled: true)
        #expect(try manager.value("static", "v", as: Int.self) == 1)
        #expect(try manager.value("static", "v", as: Int.self, context: TweakContext(attributes: ["country": "DE"])) == 1)
        #expect(rules.count == 1)
        #expect(try manager.value("targeted", "v", as: String.self, context: TweakContext(attributes: ["country": "DE"])) == "DE")
        #expect(try manager.value("targeted", "v", as: String.self, context: TweakContext(attributes: ["country": "FR"])) == "FR")
        #expect(try manager.value("targeted", "v", as: String.self) == "none")
        #expect(rules.count == 4)
    }

    @Test func aStaticAnswerBelowAProviderWhoseMissesDependOnTheContextIsNotCached() throws {
        let vip = ClosureTweakProvider.withContextualTweaks(name: "vip") { feature, variable, context in
            context.targetingKey == "vip" ? Tweak(feature: feature, variable: variable, value: 99) : nil
        }
        let manager = TweakManager(providers: [vip, Rules()], cacheEnabled: true)
        #expect(try manager.value("static", "v", as: Int.self) == 1)
        #expect(try manager.value("static", "v", as: Int.self, context: TweakContext(targetingKey: "vip")) == 99)
        #expect(try manager.lookup(feature: "static", variable: "v").tweak.dependsOnContext)
    }

    @Test func theNonThrowingReadGivesTheDefaultWithOpenFeaturesErrorCode() {
        let manager = TweakManager(providers: [Rules()])
        let missing = manager.resolve("nothing", "v", default: 5)
        #expect(missing.value == 5 && missing.reason == .error && missing.errorCode == .flagNotFound)
        let mistyped = manager.resolve("static", "v", default: "text")
        #expect(mistyped.value == "text" && mistyped.errorCode == .typeMismatch && mistyped.source == "rules")
        let off = manager.resolve("off", "v", default: true)
        #expect(off.value == true && off.reason == .disabled && off.errorCode == nil && off.source == "rules")
        let targeted = manager.resolve("targeted", "v", default: "", context: TweakContext(attributes: ["country": "DE"]))
        #expect(targeted.value == "DE" && targeted.reason == .targetingMatch && targeted.errorCode == nil)
    }

    @Test func aDisabledFlagHidesLowerProvidersAndTheThrowingReadSaysWhy() {
        let lower = EphemeralTweakProvider(name: "lower", values: ["off": ["v": true]])
        let manager = TweakManager(providers: [Rules(), lower])
        #expect(manager.value("off", "v", default: false) == false)
        #expect {
            try manager.value("off", "v", as: Bool.self)
        } throws: { error in
            guard let error = error as? TweakError, error.code == .defaulted else { return false }
            return error.defaultAnswer?.reason == .disabled && error.message.contains("gives no value (DISABLED)")
        }
    }
}
