import ArgumentParser
import Foundation
import TweakAccessorGeneration

/// `envscript generate ...`: code generated from the project's files.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate code from the project's files.",
        subcommands: [Accessors.self])

    /// `envscript generate accessors`: typed Swift accessors for a tweaks file (JustTweak's format).
    struct Accessors: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accessors",
            abstract: "Write typed Swift accessors for the tweaks of a JSON file.",
            discussion: """
                Writes <accessorName>.swift and <accessorName>+Constants.swift into DIR, rewriting a file \
                only when its contents change. The TweakAccessorPlugin build plugin does the same at build time.
                """)

        @Option(help: ArgumentHelp("The tweaks JSON file.", valueName: "file")) var tweaks: String
        @Option(help: ArgumentHelp("The configuration JSON file (\"accessorName\" and optional keys).", valueName: "file")) var config: String
        @Option(help: ArgumentHelp("The folder to write into.", valueName: "dir")) var output: String

        func run() throws {
            do {
                let results = try AccessorGenerator.run(
                    tweaksFile: URL(fileURLWithPath: tweaks), configurationFile: URL(fileURLWithPath: config),
                    outputDirectory: URL(fileURLWithPath: output, isDirectory: true))
                for result in results { print("\(result.changed ? "wrote" : "unchanged") \(result.url.path)") }
            } catch {
                throw CommandFailure.failure("\(error)")
            }
        }
    }
}
