import Foundation
import Testing
import TweakAccessorGeneration
import TestSupport

@Suite struct ConfigurationTests {
    @Test func justTweaksConfigurationWorksAsItIs() throws {
        let configuration = try AccessorConfiguration.parse(
            Data(#"{ "accessorName": "GeneratedTweakAccessor" }"#.utf8), file: "config.json")
        #expect(configuration == AccessorConfiguration(accessorName: "GeneratedTweakAccessor"))
        #expect(configuration.accessLevel == .internal)
        #expect(configuration.kind == .class)
        #expect(configuration.swiftLanguageMode == 6)
        #expect(configuration.managerPropertyName == "tweakManager")
        #expect(configuration.imports == ["Tweaks"])
        #expect(configuration.requiredFields.isEmpty)
        #expect(configuration.accessorFileName == "GeneratedTweakAccessor.swift")
        #expect(configuration.constantsFileName == "GeneratedTweakAccessor+Constants.swift")
    }

    @Test func everyKey() throws {
        let configuration = try AccessorConfiguration.parse(Data("""
            {
              "accessorName": "Flags",
              "accessLevel": "public",
              "kind": "struct",
              "swiftVersion": "5.10",
              "managerPropertyName": "manager",
              "imports": ["EnvScript", "Foundation.NSString"],
              "requiredFields": ["Title", "Description", "Group", "GeneratedPropertyName"],
              "types": { "checkout.layout": "Shop.Layout" }
            }
            """.utf8), file: "config.json")
        #expect(configuration == AccessorConfiguration(
            accessorName: "Flags", accessLevel: .public, kind: .struct, swiftLanguageMode: 5,
            managerPropertyName: "manager", imports: ["EnvScript", "Foundation.NSString"],
            requiredFields: Set(AccessorConfiguration.Field.allCases), types: ["checkout.layout": "Shop.Layout"]))
    }

    @Test(arguments: [("6", 6), ("5.9", 5), ("6.0.1", 6)])
    func swiftVersionAsAString(text: String, mode: Int) throws {
        let configuration = try AccessorConfiguration.parse(
            Data(#"{"accessorName": "A", "swiftVersion": "\#(text)"}"#.utf8), file: "config.json")
        #expect(configuration.swiftLanguageMode == mode)
    }

    @Test func swiftVersionAsANumber() throws {
        let five = try AccessorConfiguration.parse(Data(#"{"accessorName": "A", "swiftVersion": 5.9}"#.utf8), file: "c")
        #expect(five.swiftLanguageMode == 5)
        let six = try AccessorConfiguration.parse(Data(#"{"accessorName": "A", "swiftVersion": 6}"#.utf8), file: "c")
        #expect(six.swiftLanguageMode == 6)
    }

    @Test func loadsFromAFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = try folder.write(#"{"accessorName": "Flags", "kind": "struct"}"#, to: "config.json")
        #expect(try AccessorConfiguration.load(from: url) == AccessorConfiguration(accessorName: "Flags", kind: .struct))

        let missing = folder.url.appendingPathComponent("absent.json")
        #expect {
            _ = try AccessorConfiguration.load(from: missing)
        } throws: { error in
            (error as? AccessorGenerationError)?.kind == .unreadableFile
                && "\(error)" == "\(missing.path): error: cannot read the configuration: no such file or folder"
        }
    }

    /// Each bad configuration, the key blamed, and a part of the message.
    @Test(arguments: [
        (#"{}"#, "accessorName", "missing \"accessorName\""),
        (#"[1]"#, nil, "must be a JSON object"),
        (#"{"accessorName": "#, nil, "not valid JSON"),
        (#"{"accessorName": 5}"#, "accessorName", "\"accessorName\" must be a string, found a number"),
        (#"{"accessorName": "My Accessor"}"#, "accessorName", "'My Accessor' is not a Swift type name: it contains ' '"),
        (#"{"accessorName": "class"}"#, "accessorName", "is a Swift keyword"),
        (#"{"accessorName": "A", "accesorName": "B"}"#, "accesorName", "unknown key \"accesorName\"; the keys are \"accessorName\""),
        (#"{"accessorName": "A", "accessLevel": "private"}"#, "accessLevel", "must be one of \"internal\", \"package\", \"public\", found \"private\""),
        (#"{"accessorName": "A", "kind": "enum"}"#, "kind", "must be one of \"class\", \"struct\""),
        (#"{"accessorName": "A", "swiftVersion": "six"}"#, "swiftVersion", "must be a version such as \"6\""),
        (#"{"accessorName": "A", "swiftVersion": true}"#, "swiftVersion", "found a Boolean"),
        (#"{"accessorName": "A", "swiftVersion": "4.2"}"#, "swiftVersion", "too old"),
        (#"{"accessorName": "A", "managerPropertyName": "my-manager"}"#, "managerPropertyName", "not a Swift name"),
        (#"{"accessorName": "A", "managerPropertyName": "Features"}"#, "managerPropertyName", "reserved"),
        (#"{"accessorName": "A", "imports": "Tweaks"}"#, "imports", "must be an array of strings, found a string"),
        (#"{"accessorName": "A", "imports": ["Tweaks", 1]}"#, "imports", "found an element of type a number"),
        (#"{"accessorName": "A", "imports": ["Bad Module"]}"#, "imports", "'Bad Module' is not a module name"),
        (#"{"accessorName": "A", "requiredFields": ["Value"]}"#, "requiredFields", "(\"Value\" is always required)"),
        (#"{"accessorName": "A", "requiredFields": ["Colour"]}"#, "requiredFields", "found \"Colour\""),
        (#"{"accessorName": "A", "types": ["Layout"]}"#, "types", "must be an object of \"feature.variable\""),
        (#"{"accessorName": "A", "types": {"a.b": 3}}"#, "types", "found a number"),
        (#"{"accessorName": "A", "types": {"a.b": "Array<Int>"}}"#, "types", "'Array<Int>', which is not a Swift type name"),
    ] as [(String, String?, String)])
    func badConfigurations(json: String, key: String?, message: String) throws {
        let error = try #require(Generate.configurationError(json))
        #expect(error.kind == .invalidConfiguration)
        #expect(error.file == "config.json")
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.description.hasPrefix("config.json: error: "))
    }

    @Test func aTypeForAFlagTheFileDoesNotHaveIsAnError() throws {
        let error = try #require(Generate.error(
            #"{"a": {"b": {"Value": 1}}}"#, AccessorConfiguration(accessorName: "A", types: ["a.c": "Count"])))
        #expect(error.kind == .invalidConfiguration)
        #expect(error.key == "types")
        #expect(error.message.contains("maps 'a.c', which"), "\(error.message)")
    }

    @Test func aConfigurationBuiltInCodeIsCheckedWhenGenerating() throws {
        let error = try #require(Generate.error("{}", AccessorConfiguration(accessorName: "not valid")))
        #expect(error.kind == .invalidConfiguration)
        #expect(error.key == "accessorName")
    }
}
