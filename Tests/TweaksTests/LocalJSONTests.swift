import Foundation
import Testing
@testable import Tweaks
import TestSupport

@Suite struct LocalJSONTests {
    /// Parses `json` as a file named "tweaks.json" and returns the error, which must be `invalidJSON`.
    func invalid(_ json: String) -> (line: Int, column: Int, key: String?, reason: String, text: String)? {
        do {
            _ = try TweakJSON.parse(Data(json.utf8), file: "tweaks.json")
            Issue.record("expected an error for: \(json)")
        } catch let error as TweakError {
            if case .invalidJSON(let file, let line, let column, let key, let reason) = error.reason, file == "tweaks.json" {
                return (line, column, key, reason, "\(error)")
            }
            Issue.record("expected invalidJSON, got \(error)")
        } catch {
            Issue.record("expected a TweakError, got \(error)")
        }
        return nil
    }

    @Test func readsJustTweaksFormat() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = try Fixtures.defaultsProvider(in: folder)
        let tweaks = try provider.allTweaks()
        #expect(tweaks.count == 10)
        let tap = try #require(try provider.tweak(feature: "general", variable: "tap_to_change_color_enabled"))
        #expect(tap.value == true)
        #expect(tap.title == "Tap to change views color")
        #expect(tap.group == "General")
        #expect(tap.generatedPropertyName == "isTapGestureToChangeColorEnabled")
        #expect(try provider.tweak(feature: "general", variable: "greet_on_app_did_become_active")?.description
            == "Shows an alert on applicationDidBecomeActive")
        #expect(try provider.tweak(feature: "general", variable: "answer_to_the_universe")?.value == .int(42))
        #expect(try provider.tweak(feature: "ui_customization", variable: "red_view_alpha_component")?.value == .double(1.0))
        #expect(try provider.tweak(feature: "general", variable: "encrypted_answer_to_the_universe")?.isEncrypted == true)
        #expect(try provider.tweak(feature: "general", variable: "missing") == nil)
    }

    @Test func syntaxErrorsNameTheLineAndColumn() {
        let error = invalid("""
        {
          "general": {
            "a": { "Value": true },
            "b": { "Value": }
          }
        }
        """)
        #expect(error?.line == 4)
        #expect(error?.column == 21)
        #expect(error?.text.hasPrefix("tweaks.json:4:21: unexpected '}', expected a value") == true)

        #expect(invalid("{\n  \"f\": {\n    \"v\": { \"Value\": tru }\n  }\n}")?.line == 3)
        #expect(invalid("{\"f\": {\"v\": {\"Value\": 1}}")?.reason.contains("end of file") == true)
        #expect(invalid("{\"f\": {\"v\": {\"Value\": \"unterminated}}}")?.reason.contains("unterminated") == true)
        #expect(invalid("{\"f\": 1} trailing")?.reason.contains("after the end") == true)
        let trailingComma = invalid("{\"f\": {\"v\": {\"Value\": 1},\n  }\n}")
        #expect(trailingComma?.reason == "trailing comma before '}'; JSON allows none, remove it")
        #expect(trailingComma?.line == 1 && trailingComma?.column == 25)
        #expect(invalid("")?.line == 1)
    }

    @Test func shapeErrorsNameTheKeyAndItsLine() {
        let missingValue = invalid("""
        {
          "checkout": {
            "enabled": { "Value": true },
            "max_items": { "Title": "Max" }
          }
        }
        """)
        #expect(missingValue?.key == "checkout.max_items")
        #expect(missingValue?.line == 4)
        #expect(missingValue?.reason == "missing \"Value\"")
        #expect(missingValue?.text.contains("tweaks.json:4:") == true)

        let badType = invalid("""
        {
          "ui": {
            "colors": {
              "Value": ["red", null]
            }
          }
        }
        """)
        #expect(badType?.key == "ui.colors.Value[1]")
        #expect(badType?.line == 4)
        #expect(badType?.reason.contains("null is not a tweak value") == true)

        #expect(invalid("[1, 2]")?.reason.contains("object of features") == true)
        #expect(invalid("{\"f\": true}")?.key == "f")
        #expect(invalid("{\"f\": {\"v\": 3}}")?.key == "f.v")
        #expect(invalid("{\"f\": {\"v\": {\"Value\": 1, \"Title\": 2}}}")?.key == "f.v.Title")
        #expect(invalid("{\"f\": {\"v\": {\"Value\": 1, \"Encrypted\": \"yes\"}}}")?.key == "f.v.Encrypted")
        #expect(invalid("{\"f\": {\"v\": {\"Value\": null}}}")?.reason.contains("null") == true)
        #expect(invalid("{\"f\": {}, \"f\": {}}")?.reason.contains("duplicate key \"f\"") == true)
    }

    @Test func numbersAndBooleansStayApart() throws {
        let tweaks = try TweakJSON.parse(
            Data(#"{"f": {"i": {"Value": 1}, "d": {"Value": 1.0}, "e": {"Value": 1e3}, "b": {"Value": true}, "n": {"Value": -0}, "s": {"Value": "1\u00e9\n"}, "big": {"Value": 99999999999999999999}}}"#.utf8),
            file: "t.json")
        let values = Dictionary(uniqueKeysWithValues: tweaks.map { ($0.variable, $0.value) })
        #expect(values["i"] == .int(1))
        #expect(values["d"] == .double(1.0))
        #expect(values["e"] == .double(1000))
        #expect(values["b"] == .bool(true))
        #expect(values["n"] == .int(0))
        #expect(values["s"] == .string("1é\n"))
        #expect(values["big"] == .double(1e20))
    }

    @Test func unknownFieldsAreIgnored() throws {
        let tweaks = try TweakJSON.parse(Data(#"{"f": {"v": {"Value": 1, "Future": {"x": [1]}}}}"#.utf8), file: "t.json")
        #expect(tweaks.map(\.value) == [1])
    }

    @Test func aMissingOrBadFileIsAnErrorNotACrash() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.url.appendingPathComponent("absent.json")
        #expect {
            try LocalJSONTweakProvider(fileURL: missing)
        } throws: { error in
            guard case .readFailed(let file, _)? = (error as? TweakError)?.reason else { return false }
            return file == missing.path
        }
        let bad = try folder.write("{\n  \"f\": {\n    \"v\": {\"Value\": 1,}\n  }\n}", to: "bad.json")
        #expect {
            try LocalJSONTweakProvider(fileURL: bad)
        } throws: { error in
            guard case .invalidJSON(let file, let line, _, _, _)? = (error as? TweakError)?.reason else { return false }
            return file == bad.path && line == 3
        }
    }

    @Test func deepNestingFailsInsteadOfCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(invalid(deep)?.reason.contains("nesting deeper") == true)
    }

    /// Found by the tweaks-json fuzz target: `1e400` was read as infinity, a value no JSON file can hold
    /// (Foundation refuses it, so `tweak set` and export could not write it back).
    @Test func aNumberBeyondDoubleRangeIsRefusedAtItsStart() throws {
        let error = invalid("{\"f\": {\"v\": {\"Value\": -1e400}}}")
        #expect(error?.column == 23)
        #expect(error?.reason == "number -1e400 is too large for a double (at most about 1.8e308)")
        // The largest double and the smallest denormal still read.
        let tweaks = try TweakJSON.parse(Data("{\"f\": {\"a\": {\"Value\": 1.7976931348623157e308}, \"b\": {\"Value\": 5e-324}}}".utf8), file: "t.json")
        #expect(tweaks.count == 2)
    }

    /// Found by the tweaks-json fuzz target: bytes that are not UTF-8 inside a string were replaced with
    /// U+FFFD silently, so a value changed on its way in.
    @Test func aStringThatIsNotUTF8IsRefusedAtItsStart() {
        var bytes = Array("{\"f\": {\"v\": {\"Value\": \"ab".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"}}}".utf8)
        do {
            _ = try TweakJSON.parse(Data(bytes), file: "tweaks.json")
            Issue.record("a string that is not UTF-8 was read")
        } catch {
            #expect("\(error)".hasPrefix("tweaks.json:1:23: string is not valid UTF-8"))
        }
    }

    @Test func reloadPicksUpAChangedFileAndKeepsTheOldOnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(#"{"f": {"v": {"Value": 1}}}"#, to: "t.json")
        let provider = try LocalJSONTweakProvider(fileURL: file)
        let manager = TweakManager(providers: [provider], cacheEnabled: true)
        #expect(try manager.value("f", "v", as: Int.self) == 1)
        _ = try folder.write(#"{"f": {"v": {"Value": 2}}}"#, to: "t.json")
        try provider.reload()
        #expect(try manager.value("f", "v", as: Int.self) == 2)
        _ = try folder.write(#"{"f": {"v": {"Value": }}}"#, to: "t.json")
        #expect(throws: TweakError.self) { try provider.reload() }
        #expect(try manager.value("f", "v", as: Int.self) == 2)
    }
}
