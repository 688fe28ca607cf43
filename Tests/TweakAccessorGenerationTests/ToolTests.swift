import Foundation
import Testing
import TestSupport

/// The `TweakAccessorGeneratorTool` binary the plugin runs, when the build put it beside the test bundle.
@Suite struct ToolTests {
    static let binary: URL? = {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let folders = [here, here.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent()]
        for folder in folders {
            for name in ["TweakAccessorGeneratorTool", "TweakAccessorGeneratorTool-tool"] {
                let url = folder.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }()

    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    func run(_ arguments: [String], in folder: TemporaryFolder) throws -> Outcome {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let outURL = folder.url.appendingPathComponent(".out")
        let errURL = folder.url.appendingPathComponent(".err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: try String(contentsOf: outURL, encoding: .utf8),
            error: try String(contentsOf: errURL, encoding: .utf8))
    }

    @Test(.enabled(if: binary != nil, "TweakAccessorGeneratorTool is not built beside the tests"))
    func generatesThenLeavesUnchangedFilesAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tweaks = try folder.write(#"{"f": {"v": {"Value": true}}}"#, to: "Tweaks.json")
        let config = try folder.write(#"{"accessorName": "Flags"}"#, to: "config.json")
        let output = folder.url.appendingPathComponent("out").path
        let arguments = ["--tweaks", tweaks.path, "--config", config.path, "--output", output, "--verbose"]
        let first = try run(arguments, in: folder)
        #expect(first.status == 0)
        #expect(first.output == "wrote \(output)/Flags.swift\nwrote \(output)/Flags+Constants.swift\n")
        let second = try run(arguments, in: folder)
        #expect(second.status == 0)
        #expect(second.output.hasPrefix("unchanged \(output)/Flags.swift\n"))
    }

    @Test(.enabled(if: binary != nil, "TweakAccessorGeneratorTool is not built beside the tests"))
    func reportsErrorsLikeACompiler() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tweaks = try folder.write("{\"f\": {\n\"v\": {\"Value\": [null]}}}", to: "Tweaks.json")
        let config = try folder.write(#"{"accessorName": "Flags"}"#, to: "config.json")
        let outcome = try run(["--tweaks", tweaks.path, "--config", config.path, "--output", folder.url.path], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.error.hasPrefix("\(tweaks.path):2:17: error: 'f.v.Value[0]': null is not a tweak value"), "\(outcome.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Flags.swift").path))
    }
}
