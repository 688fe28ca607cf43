import Foundation
import Testing
@testable import Tweaks

@Suite struct PropertyWrapperTests {
    final class Settings {
        @TweakProperty(feature: "checkout", variable: "max_items", fallback: 1, manager: PropertyWrapperTests.manager)
        var maxItems: Int

        @TweakProperty(feature: "absent", variable: "absent", fallback: "fallback", manager: PropertyWrapperTests.manager)
        var missing: String

        @FallbackTweakProperty(fallbackValue: false, feature: "checkout", variable: "max_items",
                               tweakManager: PropertyWrapperTests.manager)
        var wrongType: Bool

        @OptionalTweakProperty(fallbackValue: nil, feature: "checkout", variable: "label",
                               tweakManager: PropertyWrapperTests.manager)
        var label: String?

        @OptionalTweakProperty(feature: "absent", variable: "absent", fallback: 2.5, manager: PropertyWrapperTests.manager)
        var ratio: Double?
    }

    static let manager = TweakManager(providers: [
        EphemeralTweakProvider(name: "overrides"),
        EphemeralTweakProvider(name: "defaults", values: ["checkout": ["max_items": 3]]),
    ])

    @Test func wrappersReadTheTweakOrTheirFallbackNeverCrash() throws {
        let settings = Settings()
        #expect(settings.maxItems == 3)
        #expect(settings.missing == "fallback")
        #expect(settings.wrongType == false)  // an Int is not read as a Bool
        #expect(settings.label == nil)
        #expect(settings.ratio == 2.5)

        try settings.$label.set("Pay")
        #expect(settings.label == "Pay")
        try settings.$maxItems.set(10)
        #expect(settings.maxItems == 10)
        #expect(try settings.$maxItems.lookup().source == "overrides")
        try settings.$maxItems.delete()
        #expect(settings.maxItems == 3)
        #expect(throws: TweakError.self) { try settings.$missing.value() }
        try settings.$label.delete()
    }
}
