import Foundation
import Testing

/// A home named with `--home` or `$ENVSCRIPT_HOME` that does not exist: commands that only read refuse
/// it and create nothing; commands that change a home create it.
@Suite(.timeLimit(.minutes(15))) struct MissingHomeTests {
    @Test func commandsThatOnlyReadRefuseAMissingHomeAndLeaveNoFolder() throws {
        let scratch = try Scratch()
        let missing = scratch.url.appendingPathComponent("does/not/exist").path
        let readers: [[String]] = [
            ["container", "list"], ["container", "info"], ["container", "info", "DEFAULT", "--json"],
            ["container", "diff", "DEFAULT", "DEFAULT"], ["container", "export", "DEFAULT", "--output", "out.zip"],
            ["tweak", "list"], ["tweak", "get", "checkout", "limit"], ["tweak", "list-overrides"],
            ["tweak", "explain", "checkout", "limit"],
        ]
        for arguments in readers {
            let outcome = try scratch.run(arguments + ["--home", missing])
            #expect(outcome.status == 2, "\(arguments) exited \(outcome.status): \(outcome.standardError)")
            #expect(outcome.standardError.contains("the home folder '\(missing)' (--home) does not exist"), "\(arguments): \(outcome.standardError)")
        }
        let fromEnvironment = try scratch.run(["container", "list"], environment: ["ENVSCRIPT_HOME": missing])
        #expect(fromEnvironment.status == 2)
        #expect(fromEnvironment.standardError.contains("($ENVSCRIPT_HOME) does not exist"), "\(fromEnvironment.standardError)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("does").path), "no folder was left behind")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out.zip").path))
    }

    @Test func commandsThatChangeAHomeCreateIt() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("new/home").path
        #expect(try scratch.run("container", "create", "Debug", "--home", home).status == 0)
        #expect(try scratch.run("container", "list", "--home", home).standardOutput.contains("Debug"))
        let other = scratch.url.appendingPathComponent("flags/home").path
        #expect(try scratch.run("tweak", "set", "checkout", "limit", "5", "--home", other).status == 0)
        #expect(try scratch.run("tweak", "get", "checkout", "limit", "--home", other).standardOutput == "5\n")
    }
}
