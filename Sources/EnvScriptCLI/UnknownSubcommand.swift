import ArgumentParser
import Tweaks

/// A mistyped subcommand (`envscript container activte`), said as such with the near names, where
/// ArgumentParser only says "unexpected argument".
enum UnknownSubcommand {
    /// The usage error for `arguments` (without the program's name) when a word stands where a
    /// subcommand is expected and names none: "unknown subcommand 'activte' of 'envscript container';
    /// did you mean 'activate'?". Nil when every subcommand is known (the parse failed for another reason).
    static func failure(in arguments: [String]) -> CommandFailure? {
        var command: any ParsableCommand.Type = EnvScriptCommand.self
        var path = [EnvScriptCommand.configuration.commandName ?? "envscript"]
        for word in arguments {
            let subcommands = command.configuration.subcommands
            // An option, or a command that takes its own arguments: nothing more to check.
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil, !word.hasPrefix("-") else { return nil }
            // ArgumentParser's own: `envscript help container`.
            if path.count == 1 && word == "help" { return nil }
            let names = subcommands.flatMap { [$0.configuration.commandName].compactMap { $0 } + $0.configuration.aliases }
            guard let next = subcommands.first(where: { $0.configuration.commandName == word || $0.configuration.aliases.contains(word) }) else {
                let group = path.joined(separator: " ")
                let near = NearNames.suggestions(for: word, among: names)
                let hint = near.isEmpty ? "; its subcommands are " + names.joined(separator: ", ") : NearNames.didYouMean(near)
                return .usage("""
                    Error: unknown subcommand '\(word)' of '\(group)'\(hint)
                    Usage: \(group) <subcommand>
                      See '\(group) --help' for more information.
                    """)
            }
            command = next
            path.append(word)
        }
        return nil
    }
}
