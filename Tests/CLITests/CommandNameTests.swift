import ArgumentParser
@testable import EnvScriptCLI
import Testing

/// Every command names itself. Without a `commandName`, ArgumentParser derives the name from the type
/// with `String(describing:)`, and each of those calls scans every protocol conformance of the binary:
/// about a third of `envscript --version`'s start-up, measured with perf.
@Suite(.timeLimit(.minutes(15))) struct CommandNameTests {
    @Test func everyCommandHasAnExplicitName() {
        var unnamed: [String] = []
        func visit(_ command: any ParsableCommand.Type, path: String) {
            let configuration = command.configuration
            guard let name = configuration.commandName else {
                unnamed.append("\(path) > \(command)")
                return
            }
            for subcommand in configuration.subcommands { visit(subcommand, path: "\(path) \(name)") }
        }
        visit(EnvScriptCommand.self, path: "")
        #expect(unnamed.isEmpty, "commands without a commandName: \(unnamed)")
    }
}
