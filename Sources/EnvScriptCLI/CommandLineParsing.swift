import ArgumentParser

/// How `envscript`'s command line becomes a command.
///
/// ArgumentParser builds a command's table of arguments by reflection, and while it parses
/// `envscript run …` it builds `run`'s table six times (twice more to learn whether `run` takes all
/// the words after it), which is more than half of `envscript run hello.lua`'s start-up and of every
/// `run --jobs` worker's. So a command line that starts with `run` is first parsed by `run` alone;
/// anything that does not come out as a `run` command from that (help, a usage error, a completion
/// script) is parsed again in full, so that its message and status are the ones the whole command
/// line gives.
enum CommandLineParsing {
    /// The command `arguments` (without the program's name) ask for.
    static func command(for arguments: [String]) throws -> any ParsableCommand {
        if arguments.first == RunCommand.configuration.commandName,
           let run = try? RunCommand.parseAsRoot(Array(arguments.dropFirst())) as? RunCommand {
            return run
        }
        return try NegativeNumberValue.parse(arguments)
    }
}
