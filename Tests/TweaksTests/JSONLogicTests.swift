import Foundation
import Testing
@testable import Tweaks

/// JsonLogic's standard operators, with its truthiness and JavaScript's comparisons.
@Suite struct JSONLogicTests {
    /// Checks that `rule` evaluated against `data` is `expected` (all JSON text).
    func check(_ rule: String, _ expected: String, data: String = "null", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try Rule.evaluate(rule, data: data)
        #expect(result == (try Rule.value(expected)), "\(rule) with \(data)", sourceLocation: sourceLocation)
    }

    @Test func literalsAndArraysEvaluateToThemselves() throws {
        try check("1", "1")
        try check("\"a\"", "\"a\"")
        try check("[1, {\"var\": \"x\"}]", "[1, 2]", data: "{\"x\": 2}")
    }

    @Test func varReadsDottedPathsIndexesDefaultsAndTheWholeData() throws {
        let data = "{\"user\": {\"name\": \"ana\", \"tags\": [\"a\", \"b\"]}, \"n\": 0}"
        try check("{\"var\": \"user.name\"}", "\"ana\"", data: data)
        try check("{\"var\": [\"user.tags.1\"]}", "\"b\"", data: data)
        try check("{\"var\": [\"user.age\", 30]}", "30", data: data)
        try check("{\"var\": \"user.name.first\"}", "null", data: data)
        try check("{\"var\": \"n\"}", "0", data: data)
        try check("{\"var\": 1}", "\"b\"", data: "[\"a\", \"b\"]")
        try check("{\"var\": \"\"}", "{\"a\": 1}", data: "{\"a\": 1}")
        try check("{\"var\": {\"cat\": [\"us\", \"er.name\"]}}", "\"ana\"", data: data)
    }

    @Test func missingAndMissingSome() throws {
        let data = "{\"a\": 1, \"b\": \"\", \"c\": {\"d\": 2}}"
        try check("{\"missing\": [\"a\", \"b\", \"c.d\", \"e\"]}", "[\"b\", \"e\"]", data: data)
        try check("{\"missing\": {\"merge\": [\"a\", [\"x\"]]}}", "[\"x\"]", data: data)
        try check("{\"missing_some\": [1, [\"a\", \"x\"]]}", "[]", data: data)
        try check("{\"missing_some\": [2, [\"a\", \"x\", \"y\"]]}", "[\"x\", \"y\"]", data: data)
    }

    @Test func ifChainsPairsAndElse() throws {
        try check("{\"if\": [true, \"yes\", \"no\"]}", "\"yes\"")
        try check("{\"if\": [false, \"yes\", \"no\"]}", "\"no\"")
        try check("{\"if\": [false, 1, false, 2, 3]}", "3")
        try check("{\"if\": [false, 1, [0], 2, 3]}", "2")
        try check("{\"if\": [false, 1]}", "null")
        try check("{\"?:\": [[], 1, 2]}", "2")
    }

    @Test func truthinessIsJsonLogics() throws {
        for falsy in ["0", "\"\"", "[]", "null", "false"] {
            try check("{\"!!\": [\(falsy)]}", "false")
            try check("{\"!\": [\(falsy)]}", "true")
        }
        for truthy in ["1", "\"0\"", "[0]", "{}", "true", "-1"] {
            try check("{\"!!\": [\(truthy)]}", "true")
        }
        try check("{\"!\": true}", "false")
    }

    @Test func looseAndStrictEquality() throws {
        try check("{\"==\": [1, \"1\"]}", "true")
        try check("{\"==\": [0, false]}", "true")
        try check("{\"==\": [null, 0]}", "false")
        try check("{\"==\": [null, null]}", "true")
        try check("{\"===\": [1, \"1\"]}", "false")
        try check("{\"===\": [1, 1.0]}", "true")
        try check("{\"!=\": [\"a\", \"b\"]}", "true")
        try check("{\"!==\": [1, \"1\"]}", "true")
        try check("{\"!=\": [1, \"1\"]}", "false")
    }

    @Test func orAndReturnTheDecidingValue() throws {
        try check("{\"or\": [0, \"\", \"x\", \"y\"]}", "\"x\"")
        try check("{\"or\": [0, false]}", "false")
        try check("{\"and\": [1, \"a\", 0, 2]}", "0")
        try check("{\"and\": [1, \"a\"]}", "\"a\"")
    }

    @Test func orderingComparesTextAsTextAndTheRestAsNumbers() throws {
        try check("{\"<\": [1, 2]}", "true")
        try check("{\"<\": [\"10\", 9]}", "false")
        try check("{\"<\": [\"a\", \"b\"]}", "true")
        try check("{\"<\": [\"10\", \"9\"]}", "true")
        try check("{\"<=\": [2, 2]}", "true")
        try check("{\">\": [3, 2]}", "true")
        try check("{\">=\": [2, 3]}", "false")
        try check("{\"<\": [1, \"abc\"]}", "false")
        try check("{\">=\": [1, \"abc\"]}", "false")
    }

    @Test func betweenFormsOfLessThan() throws {
        try check("{\"<\": [1, 2, 3]}", "true")
        try check("{\"<\": [1, 3, 3]}", "false")
        try check("{\"<=\": [1, 3, 3]}", "true")
        try check("{\"<=\": [1, 4, 3]}", "false")
    }

    @Test func arithmetic() throws {
        try check("{\"+\": [1, \"2\", 3.5]}", "6.5")
        try check("{\"+\": [\"3\"]}", "3")
        try check("{\"-\": [5, 7]}", "-2")
        try check("{\"-\": [5]}", "-5")
        try check("{\"*\": [2, 3, 4]}", "24")
        try check("{\"/\": [7, 2]}", "3.5")
        try check("{\"%\": [7, 3]}", "1")
        try check("{\"min\": [3, 1, 2]}", "1")
        try check("{\"max\": [3, 1, 2]}", "3")
        try check("{\"max\": []}", "null")
    }

    @Test func strings() throws {
        try check("{\"cat\": [\"a\", 1, true, null, 2.5]}", "\"a1true2.5\"")
        try check("{\"substr\": [\"jsonlogic\", 4]}", "\"logic\"")
        try check("{\"substr\": [\"jsonlogic\", -5]}", "\"logic\"")
        try check("{\"substr\": [\"jsonlogic\", 1, 3]}", "\"son\"")
        try check("{\"substr\": [\"jsonlogic\", 4, -2]}", "\"log\"")
        try check("{\"in\": [\"Spring\", \"Springfield\"]}", "true")
        try check("{\"in\": [\"b\", [\"a\", \"b\"]]}", "true")
        try check("{\"in\": [\"c\", [\"a\", \"b\"]]}", "false")
    }

    @Test func merge() throws {
        try check("{\"merge\": [[1, 2], 3, [[4]]]}", "[1, 2, 3, [4]]")
        try check("{\"merge\": []}", "[]")
    }

    @Test func arrayOperatorsEvaluateTheirBodyPerElement() throws {
        let data = "{\"xs\": [1, 2, 3, 4]}"
        try check("{\"map\": [{\"var\": \"xs\"}, {\"*\": [{\"var\": \"\"}, 2]}]}", "[2, 4, 6, 8]", data: data)
        try check("{\"filter\": [{\"var\": \"xs\"}, {\"%\": [{\"var\": \"\"}, 2]}]}", "[1, 3]", data: data)
        try check(
            "{\"reduce\": [{\"var\": \"xs\"}, {\"+\": [{\"var\": \"current\"}, {\"var\": \"accumulator\"}]}, 10]}", "20", data: data)
        try check("{\"all\": [{\"var\": \"xs\"}, {\">\": [{\"var\": \"\"}, 0]}]}", "true", data: data)
        try check("{\"all\": [[], true]}", "false")
        try check("{\"none\": [{\"var\": \"xs\"}, {\">\": [{\"var\": \"\"}, 3]}]}", "false", data: data)
        try check("{\"some\": [{\"var\": \"xs\"}, {\">\": [{\"var\": \"\"}, 3]}]}", "true", data: data)
        try check("{\"some\": [{\"var\": \"missing\"}, true]}", "false", data: data)
    }

    @Test func startsWithAndEndsWithAnswerNullForNonText() throws {
        try check("{\"starts_with\": [\"abcdef\", \"abc\"]}", "true")
        try check("{\"ends_with\": [\"abcdef\", \"abc\"]}", "false")
        try check("{\"ends_with\": [\"abcdef\", \"def\"]}", "true")
        try check("{\"starts_with\": [123, \"1\"]}", "null")
    }

    @Test func flagdDataHasTheFlagKeyTimestampAndTargetingKey() throws {
        let context = TweakContext(targetingKey: "user-7", attributes: ["plan": "pro", "address": ["country": "DE"]])
        #expect(try Rule.evaluate("{\"var\": \"$flagd.flagKey\"}", flagKey: "checkout", context: context) == .string("checkout"))
        #expect(try Rule.evaluate("{\"var\": \"targetingKey\"}", context: context) == .string("user-7"))
        #expect(try Rule.evaluate("{\"var\": \"address.country\"}", context: context) == .string("DE"))
        let before = Double(Int(Date().timeIntervalSince1970))
        guard case .double(let stamp) = try Rule.evaluate("{\"var\": \"$flagd.timestamp\"}", context: context) else {
            Issue.record("no timestamp")
            return
        }
        #expect(stamp >= before && stamp <= before + 5)
    }

    @Test func refsAreReplacedByTheirEvaluators() throws {
        let rule = try Rule.compile("{\"if\": [{\"$ref\": \"isPro\"}, \"on\", \"off\"]}", evaluators: ["isPro": "{\"==\": [{\"var\": \"plan\"}, \"pro\"]}"])
        let input = FlagEvaluationInput(flagKey: "f", context: TweakContext(attributes: ["plan": "pro"]))
        #expect(LogicEvaluator.evaluate(rule, .context(input)) == .string("on"))
    }

    @Test func compilingFindsUnknownOperatorsAndWrongArities() throws {
        let unknown = try Rule.problems("{\"if\": [{\"starts_wth\": [\"a\", \"b\"]}, 1]}")
        #expect(unknown.map(\.kind) == [.unknownOperator])
        #expect(unknown.first?.message.contains("starts_with") == true)
        #expect(unknown.first?.position.column == 10)
        #expect(try Rule.problems("{\"sem_ver\": [\"1.0.0\", \"=\"]}").map(\.kind) == [.arity])
        #expect(try Rule.problems("{\"==\": [1, 2, 3]}").map(\.kind) == [.arity])
        #expect(try Rule.problems("{\"==\": [1, 2], \"x\": 1}").map(\.kind) == [.notAnOperation])
        #expect(try Rule.problems("{\"<\": [1, 2, 3]}").isEmpty)
    }
}
