import Foundation
import Testing
@testable import Tweaks

/// `envscript tweak validate` on flagd files: what flagd's schema refuses though flagd (and the
/// provider) loads it, every problem at its line.
@Suite struct FlagdSchemaCheckTests {
    func validate(_ json: String) throws -> TweakFileValidator.Report {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flags.flagd.json")
        try Data(json.utf8).write(to: file)
        return TweakFileValidator.validate(files: [file.path], cipher: nil)
    }

    @Test func whatFlagdsSchemaRefusesIsReportedAtItsLine() throws {
        let report = try validate("""
            {"flags": {
              "mixed": {"state": "ENABLED", "variants": {"a": true, "b": "x"}, "defaultVariant": "a"},
              "array": {"state": "ENABLED", "variants": {"a": [1, 2]}, "defaultVariant": "a"},
              "nostate": {"variants": {"a": 1}, "defaultVariant": "a"},
              "weights": {"state": "ENABLED", "variants": {"a": 1, "b": 2}, "defaultVariant": "a",
                          "targeting": {"fractional": [["a", -5], ["b", "50"], ["a", 50]]}}
            }}
            """)
        #expect(report.flagCount == 4)
        let found = report.problems.map { ($0.line ?? 0, $0.message) }
        #expect(found.count == 5, "\(found)")
        #expect(found.contains { $0.0 == 2 && $0.1.contains("variant 'b' is a string but 'a' is a Boolean") })
        #expect(found.contains { $0.0 == 3 && $0.1.contains("variant 'a' is an array") })
        #expect(found.contains { $0.0 == 4 && $0.1.contains("has no \"state\"") })
        #expect(found.filter { $0.0 == 6 && $0.1.contains("fractional weight") }.count == 2)
    }

    @Test func aRuleThatCannotBeEvaluatedIsAProblemAndAGoodFileHasNone() throws {
        let rule = try validate(#"{"flags": {"r": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on", "targeting": {"nope": [1]}}}}"#)
        #expect(rule.problems.first?.message.contains("unknown operator \"nope\"") == true)
        let good = try validate(#"{"flags": [{"key": "ok", "state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on", "targeting": {"fractional": [["on", 50], ["off", 50]]}}]}"#)
        #expect(good.isValid, "\(good.problems)")
        #expect(good.flagCount == 1)
    }
}
