import Foundation
import Testing

/// `envscript run` and `--version`, against the built binary.
@Suite(.timeLimit(.minutes(15))) struct RunCommandTests {
    @Test func versionNamesEnvScriptAndLua() throws {
        let scratch = try Scratch()
        let outcome = try scratch.run("--version")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasPrefix("envscript 0."))
        #expect(outcome.standardOutput.contains("(Lua 5.4."))
    }

    @Test func scriptsRunInOrderInOneState() throws {
        let scratch = try Scratch()
        try scratch.write("first.lua", "shared = 20\nprint('first')")
        try scratch.write("second.lua", "print('second', shared + 22)")
        let outcome = try scratch.run("run", "first.lua", "second.lua")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "first\nsecond\t42\n")
        #expect(outcome.standardError.isEmpty)
    }

    @Test func aScriptErrorPrintsFileLineMessageAndTraceback() throws {
        let scratch = try Scratch()
        try scratch.write("bad.lua", "print('before')\nlocal function fail() error('boom') end\nfail()\n")
        let outcome = try scratch.run("run", "bad.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "before\n")
        #expect(outcome.standardError.hasPrefix("bad.lua:2: boom\nstack traceback:\n"))
        #expect(outcome.standardError.contains("bad.lua:3: in main chunk"))
    }

    @Test func loadErrorsAndUsageErrorsExitTwo() throws {
        let scratch = try Scratch()
        try scratch.write("syntax.lua", "print('never')\nx = = 1\n")
        try scratch.write("fine.lua", "print('fine')")
        let syntax = try scratch.run("run", "fine.lua", "syntax.lua")
        #expect(syntax.status == 2)
        #expect(syntax.standardOutput.isEmpty, "nothing runs when a later file does not compile")
        #expect(syntax.standardError.hasPrefix("syntax.lua:2: unexpected symbol near '='"))

        let missing = try scratch.run("run", "nope.lua")
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read script 'nope.lua': no such file"))

        let noFiles = try scratch.run("run")
        #expect(noFiles.status == 2)
        #expect(noFiles.standardError.contains("no file or folder 'spec' (busted's default ROOT)"), "\(noFiles.standardError)")

        let badOption = try scratch.run("run", "--instruction-limit", "many", "fine.lua")
        #expect(badOption.status == 2)
        #expect(badOption.standardError.contains("--instruction-limit"))

        let unknown = try scratch.run("frobnicate")
        #expect(unknown.status == 2)

        // An empty --home is refused rather than taken as the current folder.
        for command in [["run", "fine.lua"], ["container", "list"], ["tweak", "list"]] {
            let emptyHome = try scratch.run(command + ["--home", ""])
            #expect(emptyHome.status == 2, "\(command)")
            #expect(emptyHome.standardError.contains("--home must name a folder"), "\(command): \(emptyHome.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent(".envscript-containers").path))
    }

    @Test func limitsComeFromTheCommandLine() throws {
        let scratch = try Scratch()
        try scratch.write("loop.lua", "local n = 0\nwhile true do pcall(function() n = n + 1 end) end\n")
        let loop = try scratch.run("run", "--instruction-limit", "100000", "loop.lua")
        #expect(loop.status == 1)
        #expect(loop.standardError.contains("instruction limit exceeded: more than 100000 instructions"))

        try scratch.write("bomb.lua", "local parts = {}\nfor i = 1, 1e9 do parts[i] = string.rep('x', 1024) .. i end\n")
        let bomb = try scratch.run("run", "--memory-limit", "2", "bomb.lua")
        #expect(bomb.status == 1)
        #expect(bomb.standardError.contains("memory limit of 2 MiB exceeded"))
    }

    @Test func theSandboxHoldsUnlessALibraryIsAllowed() throws {
        let scratch = try Scratch()
        try scratch.write("probe.lua", "print(io ~= nil, os.execute ~= nil, os.getenv ~= nil)")
        #expect(try scratch.run("run", "probe.lua").standardOutput == "false\tfalse\tfalse\n")
        #expect(try scratch.run("run", "--allow", "os", "probe.lua").standardOutput == "false\ttrue\ttrue\n")
        let wrong = try scratch.run("run", "--allow", "ffi", "probe.lua")
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("ffi"))
    }

    @Test func requireFindsModulesBesideTheScript() throws {
        let scratch = try Scratch()
        try scratch.write("lib/main.lua", "print(require('helper').answer)")
        try scratch.write("lib/helper.lua", "return { answer = 42 }")
        let outcome = try scratch.run("run", "lib/main.lua")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "42\n")
    }

    @Test func requireFindsModulesBesideTheModuleThatRequiresThemFromAnyFolder() throws {
        let scratch = try Scratch()
        try scratch.write("project/main.lua", "print(require('lib.pricing').total(20))")
        try scratch.write("project/lib/pricing.lua", "local tax = require('tax') return { total = function(x) return x + tax.of(x) end }")
        try scratch.write("project/lib/tax.lua", "return { of = function(x) return x // 10 end }")
        try scratch.write("elsewhere/.keep", "")
        let main = scratch.url.appendingPathComponent("project/main.lua").path
        for (arguments, folder) in [(["run", "main.lua"], "project"), (["run", "project/main.lua"], ""), (["run", main], "elsewhere")] {
            let outcome = try EnvScriptProcess.run(arguments, in: scratch.url.appendingPathComponent(folder))
            #expect(outcome.status == 0, "\(arguments) in '\(folder)': \(outcome.standardError)")
            #expect(outcome.standardOutput == "22\n", "\(arguments) in '\(folder)'")
        }
    }

    @Test func requireLoadsNothingOutsideTheScriptRoots() throws {
        let scratch = try Scratch()
        try scratch.write("secret.lua", "return { leaked = true }")
        try scratch.write("project/up.lua", "print(require('secret'))")
        try scratch.write("project/linked.lua", "print(require('link').leaked)")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.url.appendingPathComponent("project/link.lua").path, withDestinationPath: "../secret.lua")
        let project = scratch.url.appendingPathComponent("project")
        let up = try EnvScriptProcess.run(["run", "up.lua"], in: project)
        #expect(up.status == 1)
        #expect(up.standardError.contains("module 'secret' not found"), "\(up.standardError)")
        let linked = try EnvScriptProcess.run(["run", "linked.lua"], in: project)
        #expect(linked.status == 1)
        #expect(linked.standardError.contains("module 'link': './link.lua' leads outside the script roots"), "\(linked.standardError)")
        #expect(!linked.standardOutput.contains("true"))
    }

    @Test func startUpScriptsLoadFirstInOrder() throws {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", "order = { 'auto' }")
        try scratch.write("extra.lua", "order = order or {}\ntable.insert(order, 'extra')")
        try scratch.write("main.lua", "print(table.concat(order, ','))")
        #expect(try scratch.run("run", "main.lua").standardOutput == "auto\n")
        #expect(try scratch.run("run", "--init", "extra.lua", "main.lua").standardOutput == "auto,extra\n")
        #expect(try scratch.run("run", "--no-init", "--init", "extra.lua", "main.lua").standardOutput == "extra\n")

        try scratch.write("envscript.lua", "error('bad start-up')")
        let failing = try scratch.run("run", "main.lua")
        #expect(failing.status == 2)
        #expect(failing.standardError.contains("in start-up script envscript.lua: envscript.lua:1: bad start-up"))
    }
}
