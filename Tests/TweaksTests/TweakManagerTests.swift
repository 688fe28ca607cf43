import Foundation
import Synchronization
import Testing
@testable import Tweaks
import TestSupport

@Suite struct TweakManagerTests {
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "backend unreachable" }
    }

    @Test func theHighestProviderThatHasTheTweakAnswers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let high = EphemeralTweakProvider(name: "high", values: ["ui_customization": ["label_text": "Override"]])
        let manager = TweakManager(providers: [high, try Fixtures.defaultsProvider(in: folder)])

        let overridden = try manager.lookup(feature: "ui_customization", variable: "label_text")
        #expect(overridden.value == "Override")
        #expect(overridden.source == "high")
        #expect(overridden.misses.isEmpty)

        let fallback = try manager.lookup(feature: "ui_customization", variable: "display_red_view")
        #expect(fallback.value == true)
        #expect(fallback.source == "defaults")
        #expect(fallback.tweak.title == "Display red view")
        #expect(fallback.tweak.group == "UI")
        #expect(fallback.misses.map(\.description) == ["high: missing"])
    }

    @Test func aFailingProviderIsReportedNotSwallowed() throws {
        let failing = ClosureTweakProvider(name: "lua") { _, _ in throw Unreachable() }
        let low = EphemeralTweakProvider(name: "low", values: ["f": ["v": 1]])
        let manager = TweakManager(providers: [failing, low])

        let lookup = try manager.lookup(feature: "f", variable: "v")
        #expect(lookup.source == "low")
        #expect(lookup.failures.count == 1)
        #expect(lookup.failures.first?.provider == "lua")
        #expect(lookup.failures.first?.error is Unreachable)

        let error = #expect(throws: TweakError.self) { try manager.lookup(feature: "f", variable: "absent") }
        guard case .notFound(let feature, let variable, let misses) = error?.reason else {
            Issue.record("expected notFound, got \(String(describing: error))")
            return
        }
        #expect(feature == "f" && variable == "absent")
        #expect(misses.map(\.provider) == ["lua", "low"])
        #expect("\(error!)".contains("lua failed: backend unreachable"))
    }

    @Test func valuesAreReadStrictlyTyped() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [try Fixtures.defaultsProvider(in: folder)])

        #expect(try manager.value("general", "answer_to_the_universe", as: Int.self) == 42)
        #expect(try manager.value("general", "answer_to_the_universe", as: Double.self) == 42.0)  // documented widening
        #expect(try manager.value("ui_customization", "red_view_alpha_component", as: Double.self) == 1.0)
        #expect(try manager.value("ui_customization", "label_text", as: String.self) == "Hello")

        let intAsBool = #expect(throws: TweakError.self) {
            try manager.value("general", "answer_to_the_universe", as: Bool.self)
        }
        guard case .typeMismatch(_, _, let expected, let found, let source) = intAsBool?.reason else {
            Issue.record("expected typeMismatch, got \(String(describing: intAsBool))")
            return
        }
        #expect(expected == "bool" && found == .int(42) && source == "defaults")
        #expect(throws: TweakError.self) { try manager.value("ui_customization", "red_view_alpha_component", as: Int.self) }
        #expect(throws: TweakError.self) { try manager.value("ui_customization", "display_red_view", as: Int.self) }
        #expect(throws: TweakError.self) { try manager.value("general", "answer_to_the_universe", as: String.self) }

        #expect(manager.value("general", "answer_to_the_universe", default: false) == false)
        #expect(manager.value("nope", "nothing", default: "fallback") == "fallback")
        #expect(manager.value("general", "answer_to_the_universe", default: 0) == 42)
    }

    @Test func enabledFollowsTheFeatureNamedVariableThenEnabled() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manager = TweakManager(providers: [
            EphemeralTweakProvider(values: ["numeric": ["enabled": 1]]), try Fixtures.defaultsProvider(in: folder),
        ])
        #expect(manager.isEnabled("ui_customization"))  // {"ui_customization": {"ui_customization": true}}
        #expect(!manager.isEnabled("checkout"))  // {"checkout": {"enabled": false}}
        #expect(!manager.isEnabled("general"))  // no flag: off
        #expect(!manager.isEnabled("numeric"))  // 1 is not a Boolean
        #expect(throws: TweakError.self) { try manager.enabled("numeric") }
        try manager.set(true, feature: "checkout", variable: "enabled")
        #expect(manager.isEnabled("checkout"))
    }

    @Test func writesGoToTheFirstMutableProviderOrANamedOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let defaults = try Fixtures.defaultsProvider(in: folder)
        let first = EphemeralTweakProvider(name: "first")
        let second = EphemeralTweakProvider(name: "second")
        let manager = TweakManager(providers: [defaults, first, second])

        try manager.set(7, feature: "checkout", variable: "max_items")
        #expect(try first.tweak(feature: "checkout", variable: "max_items")?.value == 7)
        #expect(try manager.value("checkout", "max_items", as: Int.self) == 3)  // defaults are higher

        try manager.set(.string("x"), feature: "f", variable: "v", provider: "second")
        #expect(try second.tweak(feature: "f", variable: "v")?.value == "x")
        #expect(try first.tweak(feature: "f", variable: "v") == nil)

        try manager.delete(feature: "checkout", variable: "max_items")
        #expect(try first.tweak(feature: "checkout", variable: "max_items") == nil)

        #expect(throws: TweakError.self) { try manager.set(1, feature: "f", variable: "v", provider: "defaults") }
        #expect(throws: TweakError.self) { try manager.set(1, feature: "f", variable: "v", provider: "missing") }
        let readOnly = TweakManager(providers: [defaults])
        let error = #expect(throws: TweakError.self) { try readOnly.set(1, feature: "f", variable: "v") }
        #expect("\(error!)".contains("no mutable provider"))
    }

    @Test func aWriteKeepsTheTypeTheStackAnswersWithUnlessChangingTypeIsAsked() throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(providers: [overrides])
        try manager.set(5, feature: "checkout", variable: "max_items")
        // No other provider defines the flag: the value it has now sets its type.
        let error = #expect(throws: TweakError.self) { try manager.set(.string("not a number"), feature: "checkout", variable: "max_items") }
        #expect("\(error!)" == "tweak 'checkout.max_items' is an int (as overrides defines it), not a string (\"not a number\"); give a value of that type")
        #expect(throws: TweakError.self) { try manager.set(2.5, feature: "checkout", variable: "max_items") }
        #expect(manager.value("checkout", "max_items", default: 0) == 5, "readers still get an integer")
        try manager.set(6, feature: "checkout", variable: "max_items")
        try manager.set(.string("not a number"), feature: "checkout", variable: "max_items", changingType: true)
        #expect(try manager.value("checkout", "max_items", as: String.self) == "not a number")

        // A sealed value sets the type once opened.
        let sealed = EphemeralTweakProvider(
            name: "sealed", tweaks: [Tweak(feature: "api", variable: "retries", value: "c2VjcmV0", isEncrypted: true)])
        let stack = TweakManager(providers: [EphemeralTweakProvider(name: "overrides"), sealed])
        stack.decryptor = { _ in .int(3) }
        #expect(throws: TweakError.self) { try stack.set(.string("many"), feature: "api", variable: "retries") }
        try stack.set(4, feature: "api", variable: "retries")
    }

    @Test func listMergesByPriority() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let failing = ClosureTweakProvider(name: "broken", list: { throw Unreachable() }) { _, _ in nil }
        let high = EphemeralTweakProvider(name: "high", values: ["checkout": ["max_items": 9], "extra": ["x": "y"]])
        let manager = TweakManager(
            providers: [failing, high, try Fixtures.defaultsProvider(in: folder)], decryptor: TestCipher.decryptor)
        let list = manager.list()
        #expect(list.tweaks.count == 11)
        #expect(list.tweaks.map(\.key) == list.tweaks.map(\.key).sorted())
        let maxItems = list.tweaks.first { $0.key == TweakKey(feature: "checkout", variable: "max_items") }
        #expect(maxItems?.value == 9 && maxItems?.source == "high")
        let encrypted = list.tweaks.first { $0.variable == "encrypted_answer_to_the_universe" }
        #expect(encrypted?.value == 24 && encrypted?.isEncrypted == false)
        #expect(list.failures.map(\.provider) == ["broken"])
    }

    @Test func theStackCanBeReplacedAtRuntime() throws {
        let a = EphemeralTweakProvider(name: "a", values: ["f": ["v": "a"]])
        let b = EphemeralTweakProvider(name: "b", values: ["f": ["v": "b"]])
        let manager = TweakManager(providers: [a], cacheEnabled: true)
        #expect(try manager.value("f", "v", as: String.self) == "a")
        manager.setProviders([b, a])
        #expect(try manager.value("f", "v", as: String.self) == "b")
        #expect(manager.providers.map(\.name) == ["b", "a"])
        manager.setProviders([])
        #expect(throws: TweakError.self) { try manager.lookup(feature: "f", variable: "v") }
    }

    @Test func manyTasksReadAndWriteConcurrently() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let defaults = EphemeralTweakProvider(name: "defaults", values: ["f": ["v": 0]])
        let manager = TweakManager(providers: [overrides, defaults], cacheEnabled: true)
        let notifications = Atomic<Int>(0)
        let observation = manager.observe { _ in notifications.add(1, ordering: .relaxed) }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for index in 0..<100 {
                        if task % 4 == 0 {
                            try? manager.set(.int(index), feature: "f", variable: "v")
                        } else {
                            let value = manager.value("f", "v", default: -1)
                            #expect(value >= 0)
                        }
                    }
                }
            }
        }
        #expect(notifications.load(ordering: .relaxed) == 400)
        try manager.set(12345, feature: "f", variable: "v")
        #expect(try manager.value("f", "v", as: Int.self) == 12345)
        observation.remove()
    }

    @Test func typedTextParsesLikeTheCommandLine() {
        #expect(JSONValue(parsing: "true") == .bool(true))
        #expect(JSONValue(parsing: "false") == .bool(false))
        #expect(JSONValue(parsing: "-12") == .int(-12))
        #expect(JSONValue(parsing: "2.5") == .double(2.5))
        #expect(JSONValue(parsing: "1e3") == .double(1000))
        #expect(JSONValue(parsing: "nan") == .string("nan"))
        #expect(JSONValue(parsing: "inf") == .string("inf"))
        #expect(JSONValue(parsing: "hello") == .string("hello"))
        #expect(JSONValue(parsing: "42", forceString: true) == .string("42"))
    }

    @Test func aTweakIsAValueWhoseCopiesNeverChangeEachOtherAndPrintItsFields() {
        let original = Tweak(feature: "f", variable: "v", value: 1, source: "json")
        var copy = original
        copy.value = 2
        copy.isEncrypted = true
        #expect(original.value == 1 && !original.isEncrypted && !original.isSealed)
        #expect(copy.value == 2 && copy.isEncrypted && copy.isSealed)
        #expect(copy != original)
        copy.value = 1
        copy.isEncrypted = false
        copy.isSealed = false
        #expect(copy == original && copy.hashValue == original.hashValue)
        let printed = String(describing: original)
        #expect(printed.contains(#"feature: "f""#) && printed.contains(#"source: "json""#), "\(printed)")
    }
}

