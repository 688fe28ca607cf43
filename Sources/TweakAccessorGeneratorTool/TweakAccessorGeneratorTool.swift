import ArgumentParser
import Foundation
import TweakAccessorGeneration

/// Generates typed tweak accessors; run by `TweakAccessorPlugin` at build time, and usable by hand.
///
/// Errors go to standard error as `file:line:column: error: message` and the exit status is 1.
@main
struct TweakAccessorGeneratorTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweak-accessor-generator",
        abstract: "Generate typed Swift accessors for a tweaks file in JustTweak's JSON format.",
        discussion: """
            Writes <accessorName>.swift and <accessorName>+Constants.swift into the output folder, \
            rewriting a file only when its contents change.
            """)

    @Option(name: .long, help: ArgumentHelp("The tweaks JSON file.", valueName: "file"))
    var tweaks: String

    @Option(name: .long, help: ArgumentHelp("The configuration JSON file (\"accessorName\" and optional keys).", valueName: "file"))
    var config: String

    @Option(name: .long, help: ArgumentHelp("The folder to write the generated files into.", valueName: "dir"))
    var output: String

    @Flag(name: .long, help: "Print which files were written and which were already up to date.")
    var verbose = false

    func run() throws {
        do {
            let results = try AccessorGenerator.run(
                tweaksFile: URL(fileURLWithPath: tweaks), configurationFile: URL(fileURLWithPath: config),
                outputDirectory: URL(fileURLWithPath: output, isDirectory: true))
            if verbose {
                for result in results {
                    print("\(result.changed ? "wrote" : "unchanged") \(result.url.path)")
                }
            }
        } catch let error as AccessorGenerationError {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
