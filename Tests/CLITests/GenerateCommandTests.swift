import Foundation
import Testing

/// `envscript generate accessors`, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct GenerateCommandTests {
    @Test func writesBothFilesAndOnlyRewritesOnChange() throws {
        let scratch = try Scratch()
        try scratch.write("Tweaks.json", #"{ "checkout": { "button_color": { "Title": "Colour", "Value": "blue" }, "limit": { "Value": 3, "GeneratedPropertyName": "checkoutLimit" } } }"#)
        try scratch.write("config.json", #"{ "accessorName": "AppTweaks" }"#)
        let first = try scratch.run("generate", "accessors", "--tweaks", "Tweaks.json", "--config", "config.json", "--output", "Generated")
        #expect(first.status == 0)
        #expect(first.standardOutput.components(separatedBy: "wrote ").count == 3)
        let accessor = try String(contentsOf: scratch.url.appendingPathComponent("Generated/AppTweaks.swift"), encoding: .utf8)
        #expect(accessor.contains("buttonColor"))
        #expect(accessor.contains("checkoutLimit"))
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("Generated/AppTweaks+Constants.swift").path))
        let second = try scratch.run("generate", "accessors", "--tweaks", "Tweaks.json", "--config", "config.json", "--output", "Generated")
        #expect(second.standardOutput.components(separatedBy: "unchanged ").count == 3)
    }

    @Test func duplicateNamesAreClearErrors() throws {
        let scratch = try Scratch()
        try scratch.write("Tweaks.json", """
            { "a": { "x": { "Value": 1, "GeneratedPropertyName": "same" } },
              "b": { "y": { "Value": 2, "GeneratedPropertyName": "same" } } }
            """)
        try scratch.write("config.json", #"{ "accessorName": "AppTweaks" }"#)
        let outcome = try scratch.run("generate", "accessors", "--tweaks", "Tweaks.json", "--config", "config.json", "--output", "out")
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("Tweaks.json:2:"))
        #expect(outcome.standardError.contains("duplicate property name 'same'"))
    }
}
