import Testing
import Tweaks

/// The evaluation context: OpenFeature's merge order (global < task < lookup), its JSON form, and the
/// one-string flag keys.
@Suite struct EvaluationContextTests {
    /// A provider that answers with what it was asked in: the context's `country` and targeting key.
    private static func echo() -> ClosureTweakProvider {
        .withContextualTweaks(name: "echo") { feature, variable, context in
            let country = context.attributes["country"]?.stringValue ?? "-"
            return Tweak(feature: feature, variable: variable, value: .string("\(context.targetingKey ?? "-") \(country)"))
        }
    }

    @Test func theLookupsContextWinsOverTheTasksWhichWinsOverTheGlobalOne() throws {
        let manager = TweakManager(providers: [Self.echo()])
        manager.context = TweakContext(targetingKey: "global", attributes: ["country": "FR"])
        #expect(try manager.value("f", "v", as: String.self) == "global FR")
        let read = { (context: TweakContext) throws -> String in try manager.value("f", "v", as: String.self, context: context) }
        let answers = try TweakContext.withContext(TweakContext(attributes: ["country": "DE"])) { () throws -> [String] in
            let outer = try read(.empty)
            let inner = try TweakContext.withContext(TweakContext(targetingKey: "task")) { () throws -> [String] in
                [try read(.empty), try read(TweakContext(targetingKey: "call", attributes: ["country": "IT"]))]
            }
            return [outer] + inner
        }
        #expect(answers == ["global DE", "task DE", "call IT"])
        #expect(try manager.value("f", "v", as: String.self) == "global FR")
    }

    @Test func aChildTaskInheritsTheContextOfItsParent() async throws {
        let manager = TweakManager(providers: [Self.echo()])
        let answer = try await TweakContext.withContext(TweakContext(targetingKey: "parent")) {
            try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask { try manager.value("f", "v", as: String.self) }
                return try await group.next() ?? ""
            }
        }
        #expect(answer == "parent -")
    }

    @Test func aContextIsReadFromJSONAsOpenFeatureWritesIt() throws {
        let context = try TweakContext(jsonText: #"{"targetingKey": "user-1", "plan": {"tier": "pro", "seats": null}, "beta": true, "gone": null, "tags": [1, null]}"#)
        #expect(context.targetingKey == "user-1")
        // A null field is left out; nulls inside an attribute stay, as OpenFeature's contexts hold them.
        #expect(context.attributes == ["plan": ["tier": "pro", "seats": .null], "beta": true, "tags": [1, .null]])
        #expect(context.jsonObject == ["targetingKey": "user-1", "plan": ["tier": "pro", "seats": .null], "beta": true, "tags": [1, .null]])
        var written = ""
        JSONValue.object(context.jsonObject).writeJSON(into: &written)
        #expect(written == #"{"beta":true,"plan":{"seats":null,"tier":"pro"},"tags":[1,null],"targetingKey":"user-1"}"#)
    }

    @Test(arguments: [
        (#"["a"]"#, "not an object"),
        (#"{"targetingKey": 7}"#, "its targetingKey is an int; it must be a string"),
        (#"{"a": 1,}"#, "it is not JSON"),
    ])
    func whatIsNotAContextIsRefusedSayingWhy(text: String, says: String) {
        #expect {
            try TweakContext(jsonText: text)
        } throws: { error in
            guard let error = error as? TweakError, error.code == .invalidContext else { return false }
            return error.message.contains(says)
        }
    }

    @Test(arguments: [
        ("checkout", "checkout", "checkout"),
        ("checkout.layout", "checkout", "layout"),
        ("a.b.c", "a", "b.c"),
        (".x", ".x", ".x"),
        ("x.", "x.", "x."),
    ])
    func oneStringNamesAFlag(key: String, feature: String, variable: String) {
        let flag = TweakKey(flagKey: key)
        #expect(flag == TweakKey(feature: feature, variable: variable))
        #expect(TweakKey(flagKey: flag.flagKey) == flag)
    }
}
