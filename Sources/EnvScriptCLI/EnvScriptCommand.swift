import ArgumentParser
import EnvScript

/// The root command, `envscript`.
///
/// Every command names itself (`commandName`): otherwise ArgumentParser derives each name from the
/// type with `String(describing:)`, and each of those calls scans every protocol conformance of this
/// large binary — about a third of a start-up (CommandNameTests keeps it so).
struct EnvScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "envscript",
        abstract: "Switchable environments of an application's data, with policies written in Lua.",
        version: EnvScriptVersion.banner,
        subcommands: [RunCommand.self, ReplCommand.self, CheckCommand.self, ContainerCommand.self, TweakCommand.self, ReloadCommand.self, GenerateCommand.self, TypesCommand.self, UICommand.self])
}
