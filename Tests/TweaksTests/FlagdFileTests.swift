import Foundation
import Testing
@testable import Tweaks
import TestSupport

/// flagd's flag-definition format: what loads, and what is refused with its line and flag.
@Suite struct FlagdFileTests {
    /// Loads `json` as a flagd file and returns the error, which must be `invalidJSON`.
    func refusal(
        _ json: String, invalidRules: FlagdTweakProvider.InvalidRules = .refuseFile, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (line: Int, column: Int, key: String?, message: String)? {
        do {
            _ = try FlagdDocumentReader(file: "flags.json", invalidRules: invalidRules).read(Data(json.utf8))
            Issue.record("expected the file to be refused", sourceLocation: sourceLocation)
        } catch let error as TweakError {
            if case .invalidJSON(let file, let line, let column, let key, _) = error.reason, file == "flags.json" {
                return (line, column, key, error.message)
            }
            Issue.record("expected invalidJSON, got \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a TweakError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    func read(_ json: String, invalidRules: FlagdTweakProvider.InvalidRules = .refuseFile) throws -> FlagdFlagSet {
        try FlagdDocumentReader(file: "flags.json", invalidRules: invalidRules).read(Data(json.utf8))
    }

    @Test func readsFlagsVariantsStateAndKeys() throws {
        let set = try read("""
            {"flags": {
              "checkout.new-flow": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off"},
              "banner": {"state": "DISABLED", "variants": {"a": "A"}, "defaultVariant": null},
              "limits": {"state": "ENABLED", "variants": {"small": {"items": 3}}}
            }}
            """)
        let checkout = try #require(set.flags[TweakKey(feature: "checkout", variable: "new-flow")])
        #expect(checkout.isEnabled && checkout.defaultVariant == "off" && checkout.variants["on"] == .bool(true))
        let banner = try #require(set.flags[TweakKey(feature: "banner", variable: "banner")])
        #expect(!banner.isEnabled && banner.defaultVariant == nil)
        #expect(set.flags[TweakKey(feature: "limits", variable: "limits")]?.variants["small"] == ["items": 3])
    }

    @Test func flagSetMetadataIsMergedUnderEachFlags() throws {
        let set = try read("""
            {"metadata": {"team": "shop", "version": 2},
             "flags": {"a": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x", "metadata": {"version": 3, "beta": true}}}}
            """)
        #expect(set.flags[TweakKey(flagKey: "a")]?.metadata == ["team": "shop", "version": 3, "beta": true])
    }

    @Test func emptyTargetingIsNoTargeting() throws {
        let set = try read("{\"flags\": {\"a\": {\"state\": \"ENABLED\", \"variants\": {\"x\": 1}, \"defaultVariant\": \"x\", \"targeting\": {}}}}")
        #expect(set.flags[TweakKey(flagKey: "a")]?.hasTargeting == false)
    }

    @Test func syntaxErrorsNameTheLine() {
        let refused = refusal("{\"flags\": {\n  \"a\": {\"state\": \"ENABLED\",}\n}}")
        #expect(refused?.line == 2)
        #expect(refused?.message.contains("trailing comma") == true)
    }

    @Test func unknownOperatorIsRefusedWithLineAndFlag() {
        let refused = refusal("""
            {"flags": {
              "ok": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"},
              "pricing": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x",
                "targeting": {"if": [{"start_with": [{"var": "email"}, "a"]}, "x"]}}
            }}
            """)
        #expect(refused?.line == 4)
        #expect(refused?.column == 27)
        #expect(refused?.key == "pricing")
        #expect(refused?.message.contains("unknown operator \"start_with\"") == true)
        #expect(refused?.message.contains("starts_with") == true)
    }

    @Test func wrongArityIsRefused() {
        let refused = refusal("""
            {"flags": {"v": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x",
              "targeting": {"if": [{"sem_ver": [{"var": "version"}, ">="]}, "x"]}}}}
            """)
        #expect(refused?.line == 2)
        #expect(refused?.key == "v")
        #expect(refused?.message.contains("takes 3 arguments, found 2") == true)
    }

    @Test func withFailEvaluationAnUnknownOperatorLoadsAsAParseError() throws {
        let set = try read(
            "{\"flags\": {\"a\": {\"state\": \"ENABLED\", \"variants\": {\"x\": 1}, \"defaultVariant\": \"x\", \"targeting\": {\"bogus\": [1]}}}}",
            invalidRules: .failEvaluation)
        guard case .callerDefault(let answer)? = set.flags[TweakKey(flagKey: "a")]?.evaluate(in: .empty) else {
            Issue.record("expected the caller's default")
            return
        }
        #expect(answer.errorCode == .parseError)
        #expect(answer.reason == .error)
    }

    @Test func refsAreSubstitutedAndAMissingOneIsAParseErrorAtEvaluation() throws {
        let set = try read("""
            {"$evaluators": {"isStaff": {"ends_with": [{"var": "email"}, "@example.com"]}},
             "flags": {
               "good": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                        "targeting": {"if": [{"$ref" : "isStaff"}, "on", "off"]}},
               "broken": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                          "targeting": {"if": [{"$ref": "isStaf"}, "on", "off"]}}
             }}
            """)
        let staff = TweakContext(attributes: ["email": "ana@example.com"])
        guard case .value(let tweak)? = set.flags[TweakKey(flagKey: "good")]?.evaluate(in: staff) else {
            Issue.record("expected a value")
            return
        }
        #expect(tweak.variant == "on" && tweak.reason == .targetingMatch)
        guard case .callerDefault(let answer)? = set.flags[TweakKey(flagKey: "broken")]?.evaluate(in: staff) else {
            Issue.record("expected the caller's default")
            return
        }
        #expect(answer.errorCode == .parseError)
        #expect(answer.errorMessage?.contains("isStaff") == true)
    }

    @Test func shapeProblemsAreRefusedNamingTheFlag() {
        #expect(refusal("{\"flags\": {\"a\": {\"state\": \"ON\", \"variants\": {\"x\": 1}}}}")?.key == "a")
        #expect(refusal("{\"flags\": {\"a\": {\"state\": \"ENABLED\"}}}")?.message.contains("no \"variants\"") == true)
        #expect(refusal("{\"flags\": {\"a\": {\"state\": \"ENABLED\", \"variants\": {\"x\": null}}}}")?.key == "a")
        let unknownDefault = refusal("{\"flags\": {\"a\": {\"state\": \"ENABLED\", \"variants\": {\"x\": 1}, \"defaultVariant\": \"y\"}}}")
        #expect(unknownDefault?.message.contains("not one of its variants") == true)
        #expect(refusal("{\"flags\": {\"a\": {\"state\": \"ENABLED\", \"variants\": {\"x\": 1}, \"metadata\": {\"m\": [1]}}}}")?.key == "a")
        #expect(refusal("{\"metadata\": {}}")?.message.contains("missing \"flags\"") == true)
    }

    @Test func twoKeysNamingOneTweakAreRefused() {
        let refused = refusal("""
            {"flags": {
              "dark": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"},
              "dark.dark": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"}
            }}
            """)
        #expect(refused?.line == 3)
        #expect(refused?.key == "dark.dark")
        #expect(refused?.message.contains("flag 'dark'") == true)
    }

    /// Files load as flagd loads them: the array form of "flags" (valid under flagd's schema), a flag
    /// without "state" (enabled), and by default a rule flagd cannot evaluate fails its own flag with
    /// PARSE_ERROR and a warning naming the file, the line and the flag.
    @Test func filesLoadAsFlagdLoadsThem() throws {
        let array = try read("""
            {"flags": [
              {"key": "a.b", "state": "ENABLED", "variants": {"on": 1}, "defaultVariant": "on"},
              {"key": "c", "variants": {"x": "y"}, "defaultVariant": "x"}
            ]}
            """)
        guard case .value(let first)? = array.flags[TweakKey(flagKey: "a.b")]?.evaluate(in: .empty),
              case .value(let second)? = array.flags[TweakKey(flagKey: "c")]?.evaluate(in: .empty) else {
            Issue.record("expected both flags of the array form to answer")
            return
        }
        #expect(first.value == .int(1))
        #expect(second.value == .string("y"), "a flag without state is enabled")
        #expect(refusal(#"{"flags": [{"state": "ENABLED", "variants": {"x": 1}}]}"#)?.message.contains("\"key\"") == true)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-flagd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flags.json")
        try Data("""
            {"flags": {
              "good": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"},
              "bad": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                      "targeting": {"if": [{"no_such_operator": [1]}, "on", "off"]}}
            }}
            """.utf8).write(to: file)
        let provider = try FlagdTweakProvider(fileURL: file, watchInterval: nil)
        #expect(try provider.tweak(feature: "good", variable: "good")?.value == .bool(true))
        #expect(provider.loadWarnings.count == 1)
        #expect(provider.loadWarnings.first?.hasPrefix("\(file.path):4: flag 'bad': unknown operator \"no_such_operator\"") == true, "\(provider.loadWarnings)")
        #expect(throws: TweakError.self) {
            _ = try FlagdTweakProvider(fileURL: file, invalidRules: .refuseFile, watchInterval: nil)
        }
    }

    /// flagd loads a file one of whose flags is wrong (its Go tests: a flag without "variants" loads with
    /// a schema warning), so by default that flag alone fails, with PARSE_ERROR and a warning naming the
    /// file, line and flag; the file is still refused as a whole under `refuse_file`.
    @Test func aWrongFlagFailsItsOwnEvaluationsAndTheOthersLoad() throws {
        let text = """
            {"flags": {
              "good": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"},
              "invalidFlag": {"notState": "ENABLED", "notVariants": {"on": true}, "notDefaultVariant": "on"},
              "strayDefault": {"state": "ENABLED", "variants": {"x": 1},
                               "defaultVariant": "y"}
            }}
            """
        let set = try read(text, invalidRules: .failEvaluation)
        guard case .value(let good)? = set.flags[TweakKey(flagKey: "good")]?.evaluate(in: .empty) else {
            Issue.record("the good flag answers")
            return
        }
        #expect(good.value == .bool(true))
        for (key, words) in [("invalidFlag", "no \"variants\""), ("strayDefault", "not one of its variants")] {
            guard case .callerDefault(let answer)? = set.flags[TweakKey(flagKey: key)]?.evaluate(in: .empty) else {
                Issue.record("\(key) answers the caller's default")
                continue
            }
            #expect(answer.errorCode == .parseError, "\(key)")
            #expect(answer.errorMessage?.contains(words) == true, "\(key): \(answer.errorMessage ?? "")")
        }
        #expect(set.warnings.count == 2)
        #expect(set.warnings.first?.hasPrefix("flags.json:3: flag 'invalidFlag' has no \"variants\"") == true, "\(set.warnings)")
        #expect(set.warnings.last?.hasPrefix("flags.json:5: flag 'strayDefault'") == true, "\(set.warnings)")
        #expect(refusal(text)?.key == "invalidFlag")
        // Not JSON, or not a flag set: still refused.
        #expect(refusal("{\"flags\": 3}", invalidRules: .failEvaluation) != nil)
        #expect(refusal("{\"flags\": {", invalidRules: .failEvaluation) != nil)
    }
}
