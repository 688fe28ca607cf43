import Foundation
import Testing
import TweakAccessorGeneration

/// Every problem in a tweaks file is an error naming the file, line, column and key.
@Suite struct TweaksFileErrorTests {
    @Test func duplicatePropertyNames() throws {
        let error = try #require(Generate.error("""
            {
              "general": {
                "answer": { "Value": 42 }
              },
              "other": {
                "answer": { "Value": 7 }
              }
            }
            """))
        #expect(error.kind == .duplicateName)
        #expect(error.file == "Tweaks.json")
        #expect(error.line == 6)
        #expect(error.column == 5)
        #expect(error.key == "other.answer")
        #expect(error.description == """
            Tweaks.json:6:5: error: duplicate property name 'answer': 'other.answer' and 'general.answer' (line 3) both use it; give one a different "GeneratedPropertyName"
            """)
    }

    @Test func duplicateGeneratedPropertyNamePointsAtTheField() throws {
        let error = try #require(Generate.error("""
            {
              "f": {
                "a": { "Value": true, "GeneratedPropertyName": "isOn" },
                "b": {
                  "Value": false,
                  "GeneratedPropertyName": "isOn"
                }
              }
            }
            """))
        #expect(error.kind == .duplicateName)
        #expect(error.line == 6)
        #expect(error.key == "f.b")
        #expect(error.message.contains("'f.b' and 'f.a' (line 3)"))
    }

    @Test func variablesThatCamelCaseAlikeCollide() throws {
        let error = try #require(Generate.error("{\"f\": {\"max_items\": {\"Value\": 1},\n \"maxItems\": {\"Value\": 2}}}"))
        #expect(error.kind == .duplicateName)
        #expect(error.line == 2)
        #expect(error.message.contains("'maxItems'"))
    }

    @Test func featuresThatCamelCaseAlikeCollide() throws {
        let error = try #require(Generate.error("{\"ui_x\": {\"a\": {\"Value\": 1}},\n\"uiX\": {\"b\": {\"Value\": 2}}}"))
        #expect(error.kind == .duplicateName)
        #expect(error.line == 2)
        #expect(error.key == "uiX")
        #expect(error.message.contains("duplicate feature constant 'uiX': features 'uiX' and 'ui_x' (line 1)"))
    }

    @Test func missingValue() throws {
        let error = try #require(Generate.error("""
            {
              "general": {
                "answer": { "Title": "The answer" }
              }
            }
            """))
        #expect(error.kind == .missingField)
        #expect(error.line == 3)
        #expect(error.key == "general.answer")
        #expect(error.description == "Tweaks.json:3:15: error: 'general.answer': missing \"Value\"")
    }

    @Test func missingRequiredField() throws {
        let configuration = AccessorConfiguration(accessorName: "A", requiredFields: [.title, .group])
        let error = try #require(Generate.error("""
            {
              "general": {
                "answer": { "Title": "The answer", "Value": 42 }
              }
            }
            """, configuration))
        #expect(error.kind == .missingField)
        #expect(error.line == 3)
        #expect(error.column == 5)
        #expect(error.key == "general.answer")
        #expect(error.message == "'general.answer' has no \"Group\", which the configuration requires (\"requiredFields\")")
    }

    @Test(arguments: [
        ("null", "f.v.Value", 21), ("[1, null]", "f.v.Value[1]", 25), ("{\"a\": null}", "f.v.Value.a", 27),
    ])
    func nullIsNoValueAtAnyDepth(value: String, key: String, column: Int) throws {
        let error = try #require(Generate.error("{\n  \"f\": {\n    \"v\": { \"Value\": \(value) }\n  }\n}"))
        #expect(error.kind == .unsupportedValue)
        #expect(error.line == 3)
        #expect(error.key == key)
        #expect(error.message.contains("null is not a tweak value"))
        #expect(error.description.hasPrefix("Tweaks.json:3:\(column): error: '\(key)': null is not a tweak value"), "\(error)")
    }

    @Test func numberTooLargeForADouble() throws {
        // Refused as the file is read (as every reader of tweak files does), at the number.
        let error = try #require(Generate.error("{\"f\": {\n\"v\": {\n\"Value\": 1e999}}}"))
        #expect(error.kind == .invalidTweaks)
        #expect(error.line == 3)
        #expect(error.message.contains("number 1e999 is too large for a double"))
    }

    @Test(arguments: [
        ("my-name", "contains '-'"), ("1st", "starts with a digit"), ("", "empty"), ("_", "'_' alone"),
        ("größe", "U+00F6"), ("has space", "contains ' '"),
    ])
    func invalidGeneratedPropertyNames(name: String, problem: String) throws {
        let error = try #require(Generate.error("""
            {"f": {"v": {
              "Value": true,
              "GeneratedPropertyName": "\(name)"}}}
            """))
        #expect(error.kind == .invalidName)
        #expect(error.line == 3)
        #expect(error.column == 3)
        #expect(error.key == "f.v")
        #expect(error.message.contains("\"GeneratedPropertyName\" '\(name)', which is not a Swift name"))
        #expect(error.message.contains(problem), "\(error.message)")
    }

    @Test(arguments: ["tweakManager", "Features", "Variables", "Type", "init", "self"])
    func reservedPropertyNames(name: String) throws {
        let error = try #require(Generate.error("{\"f\": {\"v\": {\"Value\": true, \"GeneratedPropertyName\": \"\(name)\"}}}"))
        #expect(error.kind == .invalidName)
        #expect(error.message.contains("reserves"))
    }

    @Test func variablesWithoutAnASCIINameNeedAGeneratedPropertyName() throws {
        let error = try #require(Generate.error("{\"f\": {\n\"größe\": {\"Value\": 1}}}"))
        #expect(error.kind == .invalidName)
        #expect(error.line == 2)
        #expect(error.message.contains("add a \"GeneratedPropertyName\""))
        // With one, it works.
        let generated = try Generate.accessors("{\"f\": {\"größe\": {\"Value\": 1, \"GeneratedPropertyName\": \"size\"}}}")
        #expect(generated.constants.contents.contains("static let size = \"größe\""))

        let derivedReserved = try #require(Generate.error("{\"f\": {\"tweak_manager\": {\"Value\": 1}}}"))
        #expect(derivedReserved.kind == .invalidName)
        #expect(derivedReserved.message.contains("would be named 'tweakManager'"))
    }

    @Test func featuresWithoutAnASCIIName() throws {
        let error = try #require(Generate.error("{\"日本\": {\"v\": {\"Value\": 1}}}"))
        #expect(error.kind == .invalidName)
        #expect(error.key == "日本")
        #expect(error.message.contains("feature '日本'"))
    }

    @Test func malformedJSONAndWrongShapes() throws {
        let syntax = try #require(Generate.error("{\n  \"f\": {\n    \"v\": { \"Value\": }\n  }\n}"))
        #expect(syntax.kind == .invalidTweaks)
        #expect(syntax.line == 3)
        #expect(syntax.description.hasPrefix("Tweaks.json:3:"))

        let notObject = try #require(Generate.error("{\"f\": [1]}"))
        #expect(notObject.kind == .invalidTweaks)
        #expect(notObject.key == "f")

        let badTitle = try #require(Generate.error("{\"f\": {\"v\": {\"Value\": 1, \"Title\": 3}}}"))
        #expect(badTitle.kind == .invalidTweaks)
        #expect(badTitle.key == "f.v.Title")
        #expect(badTitle.message.contains("must be a string"))
    }

    @Test func unreadableTweaksFile() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/folder/Tweaks.json")
        #expect {
            _ = try AccessorGenerator(configuration: AccessorConfiguration(accessorName: "A")).generate(tweaksFile: missing)
        } throws: { error in
            guard let error = error as? AccessorGenerationError else { return false }
            return error.kind == .unreadableFile && error.file == missing.path
                && error.description == "/nonexistent/folder/Tweaks.json: error: cannot read the tweaks file: no such file or folder"
        }
    }
}
