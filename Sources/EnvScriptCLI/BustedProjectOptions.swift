import ArgumentParser
import Foundation
import LuaBridge
import Scenarios

/// The options of `envscript run` that a busted user types: how spec files are found under a folder,
/// the module path, the helper, and which `.busted` task to read. Given no file, `envscript run` runs
/// the project in the current folder as `busted` does.
struct BustedProjectOptions: ParsableArguments {
    @Option(name: [.short, .customLong("pattern")], help: ArgumentHelp(
        "Run the files of a folder whose name matches this Lua pattern (repeatable).",
        discussion: "Default: _spec, as busted's.", valueName: "pattern"))
    var patterns: [String] = []

    @Option(name: .customLong("exclude-pattern"), help: ArgumentHelp(
        "Leave out the files of a folder whose name matches this Lua pattern (repeatable; over --pattern).",
        valueName: "pattern"))
    var excludedPatterns: [String] = []

    @Flag(name: [.customShort("R"), .long], inversion: .prefixedNo, help: "Search the subfolders of a folder for spec files (default: on).")
    var recursive: Bool?

    @Option(name: [.customShort("m"), .customLong("lpath")], help: ArgumentHelp(
        "Put these templates before package.path (repeatable; joined with ;).",
        discussion: "Default: \(SpecFileDiscovery.defaultModulePath), busted's.", valueName: "path"))
    var modulePaths: [String] = []

    @Flag(name: [.customShort("c"), .long], inversion: .prefixedNo, help: ArgumentHelp(
        "Count the lines that run and write LuaCov's luacov.stats.out and an lcov.info (busted's --coverage).",
        discussion: "The project's .luacov chooses the files (include, exclude) and names the stats file (statsfile)."))
    var coverage: Bool?

    @Option(help: ArgumentHelp("A script to run before the spec files, outside their insulation (busted's --helper).", valueName: "file"))
    var helper: String?

    @Option(name: [.customShort("r"), .customLong("run")], help: ArgumentHelp(
        "The task of the project's .busted to use (default: its default task).", valueName: "task"))
    var task: String?

    @Option(name: [.customShort("f"), .customLong("config-file")], help: ArgumentHelp(
        "Read busted's options from this file instead of .busted in the current folder.", valueName: "file"))
    var configFile: String?

    /// The project's `.busted` (or the file given with `--config-file`) with the task in force; nil when
    /// there is none, or when it is not trusted (another user's, or writable by anybody: a warning says
    /// so); a file given with `--config-file` is read whatever its owner.
    func configuration() throws -> BustedConfiguration? {
        let file = configFile ?? ".busted"
        var info = stat()
        guard stat(file, &info) == 0 else {
            if configFile != nil { throw CommandFailure.usage("the busted configuration '\(file)' (--config-file) does not exist") }
            if let task { throw CommandFailure.usage("--run \(task): there is no .busted in the current folder to take the task from") }
            return nil
        }
        // As git trusts a repository: by its owner. A checkout's files are often group-writable (a umask of
        // 002, an archive's modes); one that anybody may change is not trusted.
        if let problem = FileTrust.problem(info, groupMayWrite: true) {
            printError("warning: \(file) is not read: \(problem); change that (chown, chmod go-w) or pass --config-file \(file)")
            if configFile == nil { return nil }
        }
        do {
            let configuration = try BustedConfiguration.load(file: file, task: task)
            configuration.warnings.forEach { printError("warning: \($0)") }
            return configuration
        } catch let problem as BustedConfiguration.Problem {
            throw CommandFailure.usage(problem.description)
        }
    }
}
