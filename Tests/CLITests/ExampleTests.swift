import Foundation
import Testing

/// Every example of the repository runs, as the README tells readers to run it.
@Suite(.timeLimit(.minutes(15))) struct ExampleTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")

    @Test func helloRuns() throws {
        let scratch = try Scratch()
        let outcome = try EnvScriptProcess.run(
            ["run", Self.examples.appendingPathComponent("hello.lua").path], in: Self.examples.deletingLastPathComponent())
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasPrefix("Hello from EnvScript!\n"))
    }

    @Test func helloRunsFromInsideTheExamples() throws {
        let outcome = try EnvScriptProcess.run(["run", "hello.lua"], in: Self.examples)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("Hello from EnvScript!\n"))
    }

    @Test func theScenariosPassWithTheStartUpScript() throws {
        let scratch = try Scratch()
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: Self.examples.appendingPathComponent("scenarios").path)
            .filter { $0.hasSuffix(".lua") }.sorted().map { "scenarios/" + $0 }
        #expect(scenarios.count == 6)
        let outcome = try EnvScriptProcess.run(["run"] + scenarios, in: Self.examples)
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.hasSuffix("30 passed, 0 failed, 2 skipped\n"))
        // Nothing was written into the examples: each run had a temporary home.
        #expect(!FileManager.default.fileExists(atPath: Self.examples.appendingPathComponent(".envscript").path))
    }

    @Test func theStartUpScriptDrivesTheTweakCommands() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let token = try EnvScriptProcess.run(["tweak", "get", "api", "token", "--home", home], in: Self.examples)
        #expect(token.standardOutput == "demo-token-123\n")
        let frozen = try EnvScriptProcess.run(["container", "create", "Frozen", "--home", home], in: Self.examples)
        #expect(frozen.status == 0)
        let refused = try EnvScriptProcess.run(["container", "activate", "Frozen", "--home", home], in: Self.examples)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("kept for the release check"))
    }

    @Test func theHostApplicationEmbedsTheRuntime() throws {
        let scratch = try Scratch()
        let outcome = try EnvScriptProcess.run(
            [scratch.url.appendingPathComponent("home").path, Self.examples.appendingPathComponent("envscript.lua").path],
            in: scratch.url, binary: "ExampleHost")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == """
            button colour: blue
            api token: demo-token-123
            payments gateway: demo-merchant-42
            session found: ''
            in QA: session ''
            back in DEFAULT: session 'customer@example.com'
            switches seen by the script: 2
            orders placed in QA: 1, last screen 'receipt'
            orders placed in DEFAULT: 2, as a script reads it: 2

            """)
    }
}
