import Foundation
import Testing
@testable import Tweaks

/// `$ref`s are compiled once per rule and shared; a rule that stands for more operations than
/// ``LogicCompiler/maximumExpandedSize`` with its references written out is refused (the default) or
/// fails its flag, quickly and in little memory (the security review's 1.7 KB file reached 3 GB).
@Suite struct FlagdReferenceExpansionTests {
    /// Evaluators e0...e40, each `{"or": [e(n+1), e(n+1)]}`: 2^40 operations written out.
    static func doublingFile(levels: Int = 40) -> String {
        var evaluators = ["\"e\(levels)\": {\"==\": [{\"var\": \"x\"}, 1]}"]
        for level in 0..<levels {
            evaluators.append("\"e\(level)\": {\"or\": [{\"$ref\": \"e\(level + 1)\"}, {\"$ref\": \"e\(level + 1)\"}]}")
        }
        return """
            {"$evaluators": {\(evaluators.joined(separator: ",\n"))},
             "flags": {
               "ok": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off"},
               "huge": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                        "targeting": {"if": [{"$ref": "e0"}, "on", "off"]}}
             }}
            """
    }

    @Test func aRuleThatMultipliesIsRefusedWithItsLineByDefault() throws {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            _ = try FlagdDocumentReader(file: "flags.json", invalidRules: .refuseFile).read(Data(Self.doublingFile().utf8))
            Issue.record("the file loaded")
        } catch let error as TweakError {
            guard case .invalidJSON(let file, let line, _, let key, _) = error.reason else {
                Issue.record("expected invalidJSON, got \(error)")
                return
            }
            #expect(file == "flags.json")
            #expect(key == "huge")
            #expect(line > 1)
            #expect(error.message.contains("more than \(LogicCompiler.maximumExpandedSize) operations"), "\(error.message)")
        }
        #expect(started.duration(to: clock.now) < .seconds(5))
    }

    /// A long literal costs its bytes: `cat` of a 1 MB literal doubled through `$ref`s is refused
    /// before it can build gigabytes at its first evaluation.
    @Test func aLongLiteralDoubledThroughReferencesIsRefused() throws {
        var evaluators = ["\"e14\": \"" + String(repeating: "x", count: 1 << 20) + "\""]
        for level in 0..<14 {
            evaluators.append("\"e\(level)\": {\"cat\": [{\"$ref\": \"e\(level + 1)\"}, {\"$ref\": \"e\(level + 1)\"}]}")
        }
        let file = """
            {"$evaluators": {\(evaluators.joined(separator: ","))},
             "flags": {"big": {"state": "ENABLED", "variants": {"on": "a"}, "defaultVariant": "on",
                               "targeting": {"if": [{"==": [{"$ref": "e0"}, ""]}, "on", null]}}}}
            """
        #expect(throws: TweakError.self) {
            _ = try FlagdDocumentReader(file: "flags.json", invalidRules: .refuseFile).read(Data(file.utf8))
        }
    }

    /// Evaluators are compiled once per file and their problems reach every flag that refers to one.
    @Test func aSharedEvaluatorsProblemFailsEveryFlagThatRefersToIt() throws {
        let file = """
            {"$evaluators": {"broken": {"no_such_operator": [1]}},
             "flags": {
               "a": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on", "targeting": {"if": [{"$ref": "broken"}, "on", null]}},
               "b": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on", "targeting": {"if": [{"$ref": "broken"}, "on", null]}}
             }}
            """
        let set = try FlagdDocumentReader(file: "flags.json", invalidRules: .failEvaluation).read(Data(file.utf8))
        #expect(set.warnings.count == 2, "\(set.warnings)")
        for key in ["a", "b"] {
            guard case .callerDefault(let answer)? = set.flags[TweakKey(flagKey: key)]?.evaluate(in: .empty) else {
                Issue.record("flag \(key) should fail")
                continue
            }
            #expect(answer.errorCode == .parseError)
        }
    }

    @Test func underFailEvaluationOnlyThatFlagFails() throws {
        let set = try FlagdDocumentReader(file: "flags.json", invalidRules: .failEvaluation).read(Data(Self.doublingFile().utf8))
        let context = TweakContext(attributes: ["x": 1])
        guard case .callerDefault(let answer)? = set.flags[TweakKey(flagKey: "huge")]?.evaluate(in: context) else {
            Issue.record("expected the caller's default")
            return
        }
        #expect(answer.errorCode == .parseError)
        guard case .value(let ok)? = set.flags[TweakKey(flagKey: "ok")]?.evaluate(in: context) else {
            Issue.record("expected the other flag's value")
            return
        }
        #expect(ok.variant == "off")
    }

    /// A rule that shares evaluators within the bound evaluates as if each were written out.
    @Test func sharedEvaluatorsWithinTheBoundEvaluateAsWrittenOut() throws {
        let set = try FlagdDocumentReader(file: "flags.json", invalidRules: .refuseFile).read(Data(Self.doublingFile(levels: 10).utf8))
        let matching = set.flags[TweakKey(flagKey: "huge")]?.evaluate(in: TweakContext(attributes: ["x": 1]))
        let other = set.flags[TweakKey(flagKey: "huge")]?.evaluate(in: TweakContext(attributes: ["x": 2]))
        guard case .value(let on)? = matching, case .value(let off)? = other else {
            Issue.record("expected values")
            return
        }
        #expect(on.variant == "on")
        #expect(off.variant == "off")
    }
}

/// Flag files past ``TweakJSON/maximumFileSize`` are refused before more than that is read.
@Suite struct FlagFileSizeTests {
    @Test func aFileLargerThanTheLimitIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flags.json")
        // Sparse: a gigabyte of zeros on disk costs nothing, and reading it all would cost 2 GB.
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect {
            _ = try FlagdTweakProvider(fileURL: file, watchInterval: nil)
        } throws: { error in
            "\(error)".contains("larger than 16 MiB")
        }
        let small = folder.appendingPathComponent("small.json")
        try Data("{\"flags\": {}}".utf8).write(to: small)
        _ = try FlagdTweakProvider(fileURL: small, watchInterval: nil)
    }
}
