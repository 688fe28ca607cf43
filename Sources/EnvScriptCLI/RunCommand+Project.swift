import ArgumentParser
import Foundation
import Scenarios

extension RunCommand {
    /// What a run runs, once the project's `.busted` has been read.
    struct Plan {
        /// The files to run, in order.
        var files: [String]
        /// Whether they were found in folders (no file named, or a folder named): the run then reports as
        /// a scenario run whatever the files declare.
        var isProject: Bool
        /// The templates put before `package.path` (busted's `lpath`).
        var modulePath: String
        /// busted's `--helper`: run before the files, outside their insulation.
        var helper: String?
        /// Where the per-stage time limit came from, for the message of a stage it stops.
        var testTimeoutLabel: String
        /// Whether to count the lines that run and write the coverage files (busted's `--coverage`).
        var coverage: Bool
    }

    /// Reads the project's `.busted` (the task in force), applies what it sets where the command line
    /// set nothing, and finds the files to run. A value of the wrong kind in `.busted` is an input error
    /// (status 2) that names the file, the task and the key.
    mutating func plan() throws -> Plan {
        do {
            return try planFromProject()
        } catch let problem as BustedConfiguration.Problem {
            throw CommandFailure.usage(problem.description)
        }
    }

    private mutating func planFromProject() throws -> Plan {
        let configuration = try project.configuration()
        let testTimeoutGiven = testTimeout != nil
        if let configuration { try adopt(configuration) }
        let roots = try files.isEmpty ? (configuration?.texts("ROOT") ?? [SpecFileDiscovery.defaultRoot]) : files
        let patterns = try project.patterns.isEmpty ? (configuration?.texts("pattern", "p") ?? [SpecFileDiscovery.defaultPattern]) : project.patterns
        let excluded = try project.excludedPatterns.isEmpty ? (configuration?.texts("exclude-pattern") ?? []) : project.excludedPatterns
        let recursive = try project.recursive ?? configuration?.flag("recursive", "R") ?? true
        let discovery = SpecFileDiscovery(patterns: patterns, excludedPatterns: excluded, recursive: recursive)
        let isProject = files.isEmpty || roots.contains { isFolder($0) }
        let found: [String]
        do {
            // A file named that does not exist is refused where scripts are read, in its words.
            found = try discovery.files(
                under: roots, describingRoot: configuration.map { "ROOT of \($0.file)" } ?? "busted's default ROOT",
                keepsMissing: !files.isEmpty)
        } catch let problem as SpecFileDiscovery.Problem {
            throw CommandFailure.usage(problem.description)
        }
        if found.isEmpty {
            throw CommandFailure.usage(
                "no spec file under \(roots.joined(separator: ", ")): none is named like \(patterns.map { "'\($0)'" }.joined(separator: " or "))"
                    + " (--pattern)\(recursive ? "" : " in the folder itself (--no-recursive)"); name the files to run, or give --pattern")
        }
        let modulePath = try project.modulePaths.isEmpty
            ? (configuration?.text("lpath", "m") ?? SpecFileDiscovery.defaultModulePath)
            : project.modulePaths.joined(separator: ";")
        let helper = try project.helper ?? configuration?.text("helper")
        let label = testTimeoutGiven ? "--test-timeout"
            : testTimeout == nil
            ? "--test-timeout's default; raise it with --test-timeout SECONDS, or envscript = { ['test-timeout'] = SECONDS } in .busted (0: no limit)"
            : "test-timeout in \(configuration?.file ?? ".busted")"
        let coverage = try project.coverage ?? configuration?.flag("coverage", "c") ?? false
        // A shard may be empty (more shards than files): it runs nothing, and passes.
        return Plan(files: shard.map { $0.files(of: found) } ?? found, isProject: isProject, modulePath: modulePath, helper: helper, testTimeoutLabel: label, coverage: coverage)
    }

    /// Takes from `configuration` each option the command line left unset: busted's (`output`, `tags`,
    /// `exclude-tags`, `shuffle`, `seed`, `repeat`, `keep-going`, `list`) and the project's grants and
    /// limits in its `envscript` table.
    private mutating func adopt(_ configuration: BustedConfiguration) throws {
        if format == nil, let name = try configuration.text("output", "o") {
            if let named = ReportFormat(outputName: name) {
                format = named
            } else {
                printError("warning: \(configuration.file): output '\(name)' is not a report envscript writes (pretty, TAP, junit, json); the pretty report is written")
            }
        }
        if tags.isEmpty, let named = try configuration.texts("tags", "t", splitsCommas: true) { tags = named }
        if excludeTags.isEmpty, let named = try configuration.texts("exclude-tags", splitsCommas: true) { excludeTags = named }
        if !shuffle, try configuration.flag("shuffle") ?? configuration.flag("shuffle-files") ?? configuration.flag("shuffle-tests") == true {
            shuffle = true
        }
        if seed == nil, shuffle, let number = try configuration.number("seed") {
            guard number >= 0, number <= 9e15, number == number.rounded() else {
                throw CommandFailure.usage("\(configuration.file): 'seed' must be a whole number from 0, not \(number)")
            }
            seed = UInt64(number)
        }
        if repetitions == 1, let number = try configuration.number("repeat") {
            guard number >= 1, number <= 1_000_000, number == number.rounded() else {
                throw CommandFailure.usage("\(configuration.file): 'repeat' must be a whole number from 1 to 1000000, not \(number)")
            }
            repetitions = Int(number)
        }
        if !failFast, try configuration.flag("keep-going", "k") == false { failFast = true }
        if !list, try configuration.flag("list", "l") == true { list = true }
        let grants = configuration.envscript
        try runtime.adopt(grants, from: configuration.file)
        if testTimeout == nil, let seconds = try Self.seconds(grants["test-timeout"], key: "test-timeout", in: configuration.file) {
            try RuntimeOptions.validateSeconds(seconds, option: "test-timeout in \(configuration.file)", zeroTurnsItOff: true)
            testTimeout = seconds
        }
        if timeout == nil, let seconds = try Self.seconds(grants["timeout"], key: "timeout", in: configuration.file) {
            try RuntimeOptions.validateSeconds(seconds, option: "timeout in \(configuration.file)")
            timeout = seconds
        }
    }

    /// A number of seconds of the `envscript` table.
    static func seconds(_ value: BustedConfiguration.Value?, key: String, in file: String) throws -> Double? {
        switch value {
        case nil: return nil
        case .number(let seconds)?: return seconds
        default: throw CommandFailure.usage("\(file): envscript's '\(key)' must be a number of seconds")
        }
    }
}
