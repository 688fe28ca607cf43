import Foundation
import Testing

/// The start-up script is found as git finds `.git`: the nearest `envscript.lua` above the scenario
/// files' folder, else above the current folder. The relative paths it gives start from its own folder,
/// the default home sits beside it, and the pretty report's first line names it.
@Suite(.timeLimit(.minutes(15))) struct ProjectDiscoveryTests {
    /// A project whose start-up script reads `flags.json` beside it, with a scenario two folders down.
    static func project() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", "tweak.stack{ tweak.overrides(), tweak.json('flags.json') }\n")
        try scratch.write("flags.json", #"{"ui": {"color": {"Title": "Colour", "Value": "teal"}}}"#)
        try scratch.write("qa/scenarios/color.lua", """
            it("sees the project's flags", function()
              assert.are.equal("teal", tweak.value("ui", "color", "none"))
            end)
            """)
        return scratch
    }

    @Test func theSameScenarioPassesFromTheTopFromBelowAndFromBeside() throws {
        let scratch = try Self.project()
        let top = scratch.url.path
        for (folder, file, named) in [
            ("", "qa/scenarios/color.lua", "envscript.lua"),
            ("qa", "scenarios/color.lua", top + "/envscript.lua"),
            ("qa/scenarios", "color.lua", top + "/envscript.lua"),
            ("qa", top + "/qa/scenarios/color.lua", top + "/envscript.lua"),
        ] {
            let outcome = try EnvScriptProcess.run(["run", file], in: scratch.url.appendingPathComponent(folder))
            #expect(outcome.status == 0, "from \(folder): \(outcome.standardError)")
            let lines = outcome.standardOutput.split(separator: "\n")
            #expect(lines.first == "Start-up script: \(named)"[...], "from \(folder): \(outcome.standardOutput)")
            #expect(lines.last == "1 passed, 0 failed", "from \(folder): \(outcome.standardOutput)")
        }
    }

    @Test func theScenariosProjectWinsOverTheCurrentFolderAndTheNearestFileWins() throws {
        let scratch = try Self.project()
        // An outer folder with a start-up script of its own, run from there: the scenario's project wins.
        let outer = try Scratch()
        try outer.write("envscript.lua", "error('the outer start-up script must not run')\n")
        let fromOuter = try outer.run("run", scratch.url.path + "/qa/scenarios/color.lua")
        #expect(fromOuter.status == 0, "\(fromOuter.standardError)")
        // A nearer envscript.lua, between the scenario and the project's top, is the one loaded.
        try scratch.write("qa/envscript.lua", "tweak.stack{ tweak.json('../flags.json') }\nNEARER = true\n")
        try scratch.write("qa/scenarios/nearer.lua", "it('loads the nearer script', function() assert.is_true(NEARER) end)\n")
        let nearer = try scratch.run("run", "qa/scenarios/nearer.lua", "qa/scenarios/color.lua")
        #expect(nearer.status == 0, "\(nearer.standardOutput)\(nearer.standardError)")
        #expect(nearer.standardOutput.hasPrefix("Start-up script: qa/envscript.lua\n"))
    }

    @Test func theReportSaysWhenThereIsNoStartUpScript() throws {
        let scratch = try Scratch()
        try scratch.write("t.lua", "it('runs', function() end)\n")
        let none = try scratch.run("run", "t.lua")
        #expect(none.status == 0)
        #expect(none.standardOutput.hasPrefix(
            "Start-up script: none (no envscript.lua in the current folder, the scripts' folder or any folder above them)\n"))
        try scratch.write("envscript.lua", "error('skipped')\n")
        try scratch.write("extra.lua", "EXTRA = 1\n")
        let skipped = try scratch.run("run", "--no-init", "t.lua")
        #expect(skipped.standardOutput.hasPrefix("Start-up script: none (--no-init)\n"))
        let both = try scratch.run("run", "--no-init", "--init", "extra.lua", "t.lua")
        #expect(both.standardOutput.hasPrefix("Start-up script: extra.lua\n"))
        let tap = try scratch.run("run", "--no-init", "--format", "tap", "t.lua")
        #expect(tap.standardOutput.hasPrefix("TAP version 13\n"), "only the pretty report names it")
    }

    @Test func theDefaultHomeSitsBesideTheStartUpScriptFoundAbove() throws {
        let scratch = try Self.project()
        let below = scratch.url.appendingPathComponent("qa/scenarios")
        let created = try EnvScriptProcess.run(["container", "create", "Debug"], in: below)
        #expect(created.status == 0, "\(created.standardError)")
        #expect(FileManager.default.fileExists(atPath: scratch.url.path + "/.envscript/home"))
        #expect(!FileManager.default.fileExists(atPath: below.path + "/.envscript"))
        let listed = try scratch.run("container", "list")
        #expect(listed.standardOutput.contains("Debug"), "\(listed.standardOutput)")
    }
}
