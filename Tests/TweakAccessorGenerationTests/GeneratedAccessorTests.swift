import Foundation
import GeneratedAccessorsFixture
import Testing
import TweakAccessorGeneration
import Tweaks

/// The accessor TweakAccessorPlugin generated while building GeneratedAccessorsFixture: that it compiled
/// at all proves the plugin ran; these tests read tweaks through it.
@Suite struct GeneratedAccessorTests {
    @Test func readsTheFileDefaultsWhenNoProviderHasTheTweaks() {
        let accessor = FixtureTweaks.accessor(providers: [EphemeralTweakProvider()])
        #expect(accessor.isTapGestureToChangeColorEnabled == true)
        #expect(accessor.meaningOfLife == 42)
        #expect(accessor.checkoutLayout == ["columns": 3, "badges": ["new", "sale"], "ratio": 1.5, "compact": false])
        #expect(accessor.default == false)
        #expect(accessor.greeting == "Hello \"world\" \\ \\(not interpolated) #{x}\n\tünïcödé 🎉 \u{2028} end")
        #expect(accessor.redViewAlphaComponent == 1.0)
        #expect(accessor.labelText == "Test value")
        #expect(accessor.minOffset == -3)
        #expect(accessor.tinyScale == 1e-7)
        #expect(accessor.timeoutSeconds == 2.5)
        #expect(accessor.definitiveAnswerEncrypted == nil)
        // A flag mapped to a type of the module has no default to fall back to.
        #expect(accessor.theme == nil)
        #expect(accessor.grid == nil)
    }

    @Test func flagsMappedToTypesOfTheModuleAreDecoded() throws {
        let local = try LocalJSONTweakProvider(fileURL: FixtureTweaks.fileURL)
        let overrides = EphemeralTweakProvider(name: "overrides")
        let accessor = FixtureTweaks.accessor(providers: [overrides, local])
        #expect(accessor.theme == .dark)
        #expect(accessor.grid == FixtureGrid(columns: 3, badges: ["new"]))
        try accessor.tweakManager.set(["columns": 1, "badges": []], feature: "ui_customization", variable: "grid")
        try accessor.tweakManager.set("light", feature: "ui_customization", variable: "theme")
        #expect(accessor.grid == FixtureGrid(columns: 1, badges: []))
        #expect(accessor.theme == .light)
        // A value that does not decode reads as nil; the manager says why, naming the field.
        try accessor.tweakManager.set(["columns": "three", "badges": []], feature: "ui_customization", variable: "grid")
        try accessor.tweakManager.set("sepia", feature: "ui_customization", variable: "theme")
        #expect(accessor.grid == nil)
        #expect(accessor.theme == nil)
        #expect {
            _ = try accessor.tweakManager.value("ui_customization", "grid", as: FixtureGrid.self)
        } throws: { "\($0)".contains("at 'columns'") }
    }

    @Test func readsTheManagersValuesInPriorityOrder() throws {
        let local = try LocalJSONTweakProvider(fileURL: FixtureTweaks.fileURL)
        let overrides = EphemeralTweakProvider(values: [
            "general": ["answer_to_the_universe": 7, "default": true],
            "ui_customization": ["label_text": "Overridden", "red_view_alpha_component": 0.25],
        ])
        let accessor = FixtureTweaks.accessor(providers: [overrides, local])
        #expect(accessor.meaningOfLife == 7)
        #expect(accessor.default == true)
        #expect(accessor.labelText == "Overridden")
        #expect(accessor.redViewAlphaComponent == 0.25)
        #expect(accessor.isTapGestureToChangeColorEnabled == true)  // from the local file

        try overrides.set(.int(99), feature: FixtureTweakAccessor.Features.general,
                          variable: FixtureTweakAccessor.Variables.meaningOfLife)
        #expect(accessor.meaningOfLife == 99)
        try accessor.tweakManager.set(false, feature: FixtureTweakAccessor.Features.general,
                                      variable: FixtureTweakAccessor.Variables.isTapGestureToChangeColorEnabled)
        #expect(accessor.isTapGestureToChangeColorEnabled == false)
    }

    @Test func aValueOfAnotherTypeFallsBackInsteadOfCrashing() {
        let wrong = EphemeralTweakProvider(values: [
            "general": ["answer_to_the_universe": "forty-two", "tap_to_change_color_enabled": 1],
        ])
        let accessor = FixtureTweaks.accessor(providers: [wrong])
        #expect(accessor.meaningOfLife == 42)
        #expect(accessor.isTapGestureToChangeColorEnabled == true)
    }

    @Test func encryptedTweaksAreDecryptedOrNil() throws {
        let local = try LocalJSONTweakProvider(fileURL: FixtureTweaks.fileURL)
        #expect(FixtureTweaks.accessor(providers: [local]).definitiveAnswerEncrypted == nil)

        let reverse: TweakDecryptor = { tweak in .string(String((tweak.value.stringValue ?? "").reversed())) }
        let accessor = FixtureTweaks.accessor(providers: [local], decryptor: reverse)
        #expect(accessor.definitiveAnswerEncrypted == "Definitely not 42")

        let failing: TweakDecryptor = { _ in throw CancellationError() }
        #expect(FixtureTweaks.accessor(providers: [local], decryptor: failing).definitiveAnswerEncrypted == nil)
    }

    @Test func constantsNameTheFilesKeys() {
        #expect(FixtureTweakAccessor.Features.general == "general")
        #expect(FixtureTweakAccessor.Features.uiCustomization == "ui_customization")
        #expect(FixtureTweakAccessor.Features.httpsSettings == "HTTPS_settings")
        #expect(FixtureTweakAccessor.Variables.meaningOfLife == "answer_to_the_universe")
        #expect(FixtureTweakAccessor.Variables.definitiveAnswerEncrypted == "encrypted_answer_to_the_universe")
        #expect(FixtureTweakAccessor.Variables.default == "default")
    }

    /// The fixture's folder in the source tree.
    static let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("GeneratedAccessorsFixture")

    /// The plugin's output folder for the fixture, found from the test bundle's location in the build
    /// folder (`<scratch>/<triple>/debug/…xctest` beside `<scratch>/plugins/outputs/…`), or nil.
    static let pluginOutput: URL? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let outputs = folder.appendingPathComponent("plugins/outputs")
            let packages = (try? FileManager.default.contentsOfDirectory(atPath: outputs.path)) ?? []
            for package in packages.sorted() {
                let candidate = outputs.appendingPathComponent(
                    "\(package)/GeneratedAccessorsFixture/destination/TweakAccessorPlugin/GeneratedSources")
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("FixtureTweakAccessor.swift").path) {
                    return candidate
                }
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    @Test func theFixtureFilesGenerateTheCompiledAccessor() throws {
        let configuration = try AccessorConfiguration.load(
            from: Self.fixtureFolder.appendingPathComponent("TweakAccessorConfig.json"))
        let generated = try AccessorGenerator(configuration: configuration)
            .generate(tweaksFile: Self.fixtureFolder.appendingPathComponent("Tweaks.json"))
        #expect(generated.accessor.contents.contains("public var meaningOfLife: Int {"))
        #expect(generated.accessor.contents.contains("public var definitiveAnswerEncrypted: String? {"))
        #expect(try Data(contentsOf: Self.fixtureFolder.appendingPathComponent("Tweaks.json"))
            == Data(contentsOf: FixtureTweaks.fileURL))
    }

    @Test(.enabled(if: pluginOutput != nil, "the plugin's output folder is not beside the test bundle"))
    func thePluginWroteWhatTheLibraryGenerates() throws {
        let output = try #require(Self.pluginOutput)
        let configuration = try AccessorConfiguration.load(
            from: Self.fixtureFolder.appendingPathComponent("TweakAccessorConfig.json"))
        let generated = try AccessorGenerator(configuration: configuration)
            .generate(tweaksFile: Self.fixtureFolder.appendingPathComponent("Tweaks.json"))
        for file in generated.files {
            #expect(try String(contentsOf: output.appendingPathComponent(file.name), encoding: .utf8) == file.contents)
        }
    }
}
