import ArgumentParser
@testable import EnvScriptCLI
import Testing

/// `envscript run …` is parsed by `run` alone first (start-up); whatever does not come out as a `run`
/// command is parsed in full, so that it says and exits as the whole command line does.
@Suite(.timeLimit(.minutes(15))) struct CommandLineParsingTests {
    @Test func aRunCommandLineComesOutAsTheFullParseWouldGiveIt() throws {
        let arguments = ["run", "--jobs", "3", "--shard", "2/4", "--format", "tap", "--allow", "io", "a_spec.lua", "b.lua"]
        let quick = try #require(try CommandLineParsing.command(for: arguments) as? RunCommand)
        let full = try #require(try EnvScriptCommand.parseAsRoot(arguments) as? RunCommand)
        #expect(quick.files == full.files)
        #expect(quick.jobs == full.jobs)
        #expect(quick.shardGiven == full.shardGiven)
        #expect(quick.format == full.format)
    }

    /// Help, a usage error and a completion script come from the full parse: the same command or the
    /// same message and status as ArgumentParser gives for the whole command line.
    @Test(arguments: [["run", "--help"], ["run", "-h"], ["run", "--no-such-option"], ["run", "--jobs", "none"],
                      ["run", "--generate-completion-script", "bash"], ["run", "--version"], ["run", "help"]])
    func whatIsNotARunCommandComesFromTheFullParse(_ arguments: [String]) {
        func outcome(_ parse: () throws -> any ParsableCommand) -> String {
            do {
                return "command \(type(of: try parse()))"
            } catch {
                return "status \(EnvScriptCommand.exitCode(for: error).rawValue): \(EnvScriptCommand.fullMessage(for: error))"
            }
        }
        let quick = outcome { try CommandLineParsing.command(for: arguments) }
        let full = outcome { try NegativeNumberValue.parse(arguments) }
        #expect(quick == full)
    }
}
