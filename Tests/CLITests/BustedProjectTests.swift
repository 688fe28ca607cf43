import Foundation
import Testing

/// A busted project runs as it is (issue #45): `envscript run` from a project's root finds its specs,
/// reads its `.busted`, finds its modules under `src/`, runs its describe bodies in busted's order, and
/// gives the globals and libraries busted's specs read. Each case is a small fixture project of ours.
@Suite(.timeLimit(.minutes(10))) struct BustedProjectTests {
    /// The last line of a pretty report.
    private func summary(_ output: String) -> String {
        String(output.split(separator: "\n").last ?? "")
    }

    @Test func describeBodiesRunWhenTheRunReachesThemAsInBusted() throws {
        let scratch = try Scratch()
        try scratch.write("order_spec.lua", """
            local log = {}
            local v
            describe('a', function() it('sets', function() v = 1 end) end)
            describe('b', function() local w = v; it('sees what a test before it set', function() assert.equal(1, w) end) end)
            describe('outer', function()
              log[#log + 1] = 'outer body'
              setup(function() log[#log + 1] = 'outer setup' end)
              it('first', function() log[#log + 1] = 'first' end)
              describe('inner', function()
                log[#log + 1] = 'inner body'
                setup(function() log[#log + 1] = 'inner setup' end)
                it('second', function() log[#log + 1] = 'second' end)
              end)
              teardown(function() log[#log + 1] = 'outer teardown' end)
            end)
            describe('check', function()
              local seen = table.concat(log, ',')
              it('ran in busted order', function()
                assert.equal('outer body,outer setup,first,inner body,inner setup,second,outer teardown', seen)
              end)
            end)
            describe('a block whose setup fails', function()
              setup(function() error('no setup') end)
              describe('inside it', function() log[#log + 1] = 'never' end)
            end)
            describe('last', function()
              it('saw no body inside a failed setup', function()
                assert.is_nil(table.concat(log, ','):find('never'))
              end)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "order_spec.lua")
        #expect(outcome.standardOutput.contains("PASS b sees what a test before it set"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("PASS check ran in busted order"))
        #expect(outcome.standardOutput.contains("ERROR a block whose setup fails (setup)"))
        #expect(summary(outcome.standardOutput) == "6 passed, 0 failed, 1 errored")
    }

    /// The names of the tests a run reported as passed, in order.
    private func passed(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("PASS ") }.map { line in
            let name = line.dropFirst(5)
            return String(name[..<(name.range(of: " (", options: .backwards)?.lowerBound ?? name.endIndex)])
        }
    }

    /// A project whose specs each pass one test named after their file.
    private func project(_ files: [String]) throws -> Scratch {
        let scratch = try Scratch()
        for file in files {
            let name = (file as NSString).lastPathComponent
            try scratch.write(file, "describe('\(name)', function() it('runs', function() end) end)\n")
        }
        return scratch
    }

    @Test func aProjectsSpecsAreFoundAsBustedFindsThem() throws {
        let scratch = try project([
            "spec/a_spec.lua", "spec/sub/deeper/b_spec.lua", "spec/.hidden/c_spec.lua", "spec/helper.lua",
            "spec/sub/d_test.lua", "spec/e_spec.txt",
        ])
        let all = try scratch.run("run")
        #expect(all.status == 0, "\(all.standardOutput)\(all.standardError)")
        #expect(passed(all.standardOutput) == ["a_spec.lua runs", "b_spec.lua runs"])
        #expect(passed(try scratch.run("run", "-p", "_test").standardOutput) == ["d_test.lua runs"])
        #expect(passed(try scratch.run("run", "--exclude-pattern", "^b_").standardOutput) == ["a_spec.lua runs"])
        #expect(passed(try scratch.run("run", "--no-recursive").standardOutput) == ["a_spec.lua runs"])
        #expect(passed(try scratch.run("run", "spec/sub").standardOutput) == ["b_spec.lua runs"])
        // A file named is run whatever its name.
        #expect(passed(try scratch.run("run", "spec/helper.lua", "spec/a_spec.lua").standardOutput) == ["helper.lua runs", "a_spec.lua runs"])
        let bad = try scratch.run("run", "-p", "[")
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("a spec file pattern is not a Lua pattern"), "\(bad.standardError)")
        let none = try Scratch().run("run")
        #expect(none.status == 2)
        #expect(none.standardError.contains("no file or folder 'spec' (busted's default ROOT)"), "\(none.standardError)")
    }

    @Test func theBustedFileGivesTheTaskItsRootPatternModulePathAndTags() throws {
        let scratch = try Scratch()
        try scratch.write(".busted", """
            return {
              _all = { lpath = 'lib/?.lua' },
              default = { ROOT = { 'checks' }, pattern = '_check%.lua$', ['exclude-tags'] = 'slow', verbose = true, frobnicate = 1 },
              other = { ROOT = { 'checks' }, pattern = '_check%.lua$', tags = { 'slow' }, output = 'TAP' },
            }
            """)
        try scratch.write("lib/greeting.lua", "return 'hello'\n")
        try scratch.write("checks/greeting_check.lua", """
            local greeting = require 'greeting'
            describe('greeting', function()
              it('comes from lib', function() assert.equal('hello', greeting) end)
              it('takes its time #slow', function() end)
            end)
            """)
        let byDefault = try scratch.run("run")
        #expect(byDefault.status == 0, "\(byDefault.standardOutput)\(byDefault.standardError)")
        #expect(passed(byDefault.standardOutput) == ["greeting comes from lib"])
        #expect(byDefault.standardError.contains(".busted (task 'default'): 'frobnicate' is not an option envscript run knows; it is ignored"))
        #expect(byDefault.standardError.contains(".busted (task 'default'): 'verbose' has no effect"))
        let other = try scratch.run("run", "--run", "other")
        #expect(other.status == 0, "\(other.standardError)")
        #expect(other.standardOutput.hasPrefix(#"TAP version 13"# + "\n" + ##"ok 1 - greeting takes its time \#slow"## + "\n"), "\(other.standardOutput)")
        // The command line wins over the task.
        let pretty = try scratch.run("run", "-r", "other", "-o", "utfTerminal")
        #expect(passed(pretty.standardOutput) == ["greeting takes its time #slow"])
        let missing = try scratch.run("run", "--run", "nightly")
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("has no task 'nightly' (--run); its tasks: default, other"), "\(missing.standardError)")
        try scratch.write(".busted", "return 42\n")
        let notATable = try scratch.run("run")
        #expect(notATable.status == 2)
        #expect(notATable.standardError.contains("does not return a table"))
    }

    @Test func modulesUnderSrcAreFoundWithBustedsDefaultModulePathAndLpath() throws {
        let scratch = try Scratch()
        try scratch.write("src/calc.lua", "return { add = function(a, b) return a + b end }\n")
        try scratch.write("src/shapes/init.lua", "return { sides = 4 }\n")
        try scratch.write("vendor/extra.lua", "return 'extra'\n")
        try scratch.write("spec/calc_spec.lua", """
            describe('modules', function()
              it('finds src/calc.lua', function() assert.equal(3, require('calc').add(1, 2)) end)
              it('finds src/shapes/init.lua', function() assert.equal(4, require('shapes').sides) end)
              it('finds vendor with --lpath', function()
                local ok, extra = pcall(require, 'extra')
                assert.is_true(ok and extra == 'extra')
              end)
            end)
            """)
        let byDefault = try scratch.run("run")
        #expect(summary(byDefault.standardOutput) == "2 passed, 1 failed", "\(byDefault.standardOutput)")
        let withPath = try scratch.run("run", "-m", "./src/?.lua;./src/?/init.lua", "--lpath", "./vendor/?.lua")
        #expect(summary(withPath.standardOutput) == "3 passed, 0 failed", "\(withPath.standardOutput)")
    }

    @Test func theHelperRunsFirstOutsideInsulationAndArgIsSet() throws {
        let scratch = try Scratch()
        try scratch.write("spec/helper.lua", """
            shared_fixture = { ready = true }
            assert:register('assertion', 'even', function(_, args) return args[1] % 2 == 0 end, 'even', 'odd')
            """)
        try scratch.write("spec/first_spec.lua", """
            describe('helper', function()
              it('set a global', function() assert.is_true(shared_fixture.ready) end)
              it('registered an assertion', function() assert.is_even(4) end)
              it('has arg', function()
                assert.is_table(arg)
                assert.is_string(arg[0])
                assert.equal('--helper', arg[1])
              end)
            end)
            """)
        let outcome = try scratch.run("run", "--helper", "spec/helper.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(summary(outcome.standardOutput) == "3 passed, 0 failed")
        try scratch.write("spec/broken.lua", "error('no fixture')\n")
        let broken = try scratch.run("run", "--helper", "spec/broken.lua")
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("in the helper spec/broken.lua (--helper): spec/broken.lua:1: no fixture"), "\(broken.standardError)")
    }

    @Test func outputTakesBustedsFormatNames() throws {
        let scratch = try project(["spec/a_spec.lua"])
        try scratch.write("spec/b_spec.lua", """
            describe('b', function()
              it('fails', function() assert.equal(1, 2) end)
              pending('later')
            end)
            """)
        let tap = try scratch.run("run", "-o", "TAP")
        #expect(tap.standardOutput.hasPrefix("TAP version 13\n"), "\(tap.standardOutput)")
        let json = try scratch.run("run", "-o", "json")
        #expect(json.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((document?["successes"] as? [[String: Any]])?.first?["name"] as? String == "a_spec.lua runs")
        let failure = (document?["failures"] as? [[String: Any]])?.first
        #expect(failure?["name"] as? String == "b fails")
        #expect((failure?["trace"] as? [String: Any])?["currentline"] as? Int == 2)
        #expect((document?["pendings"] as? [[String: Any]])?.count == 1)
        #expect((document?["errors"] as? [[String: Any]])?.isEmpty == true)
        let gtest = try scratch.run("run", "-o", "gtest")
        #expect(gtest.status == 2)
        #expect(gtest.standardError.contains("busted's gtest output has no counterpart"))
        // Any other value is still the report's file.
        let file = try scratch.run("run", "-o", "report.xml", "--format", "junit")
        #expect(file.standardOutput.isEmpty)
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("report.xml").path))
    }

    @Test func aTestWithoutLimitsBustedDoesNotHaveRunsAndALimitSaysHowToRaiseIt() throws {
        let scratch = try Scratch()
        // About 300 million instructions: past the old default budget of 100 million, within seconds.
        try scratch.write("spec/slow_spec.lua", """
            describe('honest', function()
              it('computes long', function()
                local x = 0
                for i = 1, 6e7 do x = x + i % 7 end
                assert.is_true(x > 0)
              end)
            end)
            """)
        let honest = try scratch.run("run")
        #expect(honest.status == 0, "\(honest.standardOutput)")
        try scratch.write(".busted", "return { default = { envscript = { ['test-timeout'] = 0.02 } } }\n")
        let stopped = try scratch.run("run")
        #expect(stopped.status == 1)
        #expect(stopped.standardOutput.contains("time limit exceeded: the test took longer than 0.02 s (test-timeout in .busted)"), "\(stopped.standardOutput)")
    }

    @Test func insulationHoldsWhenTheSelectionLeavesABlockOutAndBodiesRunEachPass() throws {
        let scratch = try Scratch()
        try scratch.write("spec/leak_spec.lua", """
            insulate('left out', function()
              _G.LEAK = 'leaked'
              it('is not selected', function() end)
            end)
            describe('chosen', function()
              _G.CONFIG = (_G.CONFIG or 0) + 1
              it('sees no leak and its body ran this pass #sel', function()
                assert.is_nil(_G.LEAK)
                assert.is_number(_G.CONFIG)
              end)
            end)
            """)
        let selected = try scratch.run("run", "--tags", "sel", "--repeat", "2")
        #expect(selected.status == 0, "\(selected.standardOutput)")
        #expect(summary(selected.standardOutput) == "2 passed, 0 failed")
    }

    @Test func listSaysABodyThatFailsAndBadBustedValuesAreInputErrors() throws {
        let scratch = try Scratch()
        try scratch.write("spec/a_spec.lua", """
            describe('fine', function() it('listed', function() end) end)
            describe('broken', function() error('no fixture') end)
            """)
        let list = try scratch.run("run", "--list")
        #expect(list.status == 1)
        #expect(list.standardOutput == "spec/a_spec.lua: fine listed\n")
        #expect(list.standardError.contains("spec/a_spec.lua: broken: spec/a_spec.lua:2: no fixture"), "\(list.standardError)")
        try scratch.write(".busted", "return { default = { ['keep-going'] = 'no' } }\n")
        let wrongType = try scratch.run("run")
        #expect(wrongType.status == 2)
        #expect(wrongType.standardError.contains("'keep-going' must be true or false"), "\(wrongType.standardError)")
        try scratch.write(".busted", "return { default = { ['repeat'] = 0 } }\n")
        #expect(try scratch.run("run").standardError.contains("'repeat' must be a whole number from 1"))
        let twoFormats = try scratch.run("run", "--format", "junit", "-o", "json")
        #expect(twoFormats.status == 2)
    }
}
