import ArgumentParser
import EnvScript

/// The root command, `envscript`.
struct EnvScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "envscript",
        abstract: "Switchable environments of an application's data, with policies written in Lua.",
        version: EnvScriptVersion.banner,
        subcommands: [RunCommand.self, ReplCommand.self, CheckCommand.self, ContainerCommand.self, TweakCommand.self, GenerateCommand.self, TypesCommand.self, UICommand.self])
}
