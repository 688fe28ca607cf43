import Foundation
import Testing

/// busted's runner surface as its users write it (issue #30), each point checked through the built
/// `envscript run`: the module `require 'busted'` returns, the curried declarations, `randomize`,
/// `pending` inside a test, declarations refused inside a running test or hook, where a block's globals
/// live (`expose` one level up, siblings apart), strict setup and teardown, failures told from errors in
/// every report, hook errors counted as busted counts them, a spec file that fails before its first
/// `describe`, `package.loaded` insulation, and Lua's own `assert` in plain scripts.
@Suite(.timeLimit(.minutes(15))) struct BustedCompatibilityTests {
    /// The last line of a pretty report.
    private func summary(_ output: String) -> String {
        String(output.split(separator: "\n").last ?? "")
    }

    @Test func requireBustedReturnsTheDeclarationsAndBustedsApiReadOnly() throws {
        let scratch = try Scratch()
        try scratch.write("export_spec.lua", """
            local busted = require 'busted'
            describe('exports', function()
              local it_here, describe_here = it, describe
              it('the same functions as the globals', function()
                assert.is_equal(it_here, busted.it)
                assert.is_equal(describe_here, busted.describe)
                assert.is_equal(assert, busted.assert)
                assert.is_equal(spy, busted.spy)
                assert.is_nil(busted.init)
                assert.is_nil(busted.file)
                assert.is_string(busted.version)
                for _, name in ipairs({ 'bindfenv', 'fail', 'gettime', 'monotime', 'sleep', 'parent', 'children' }) do
                  assert.is_function(busted[name], name)
                end
              end)
              it('publishes to subscribers', function()
                local got
                local sub = busted.subscribe({ 'topic' }, function(...) got = { ... } end)
                busted.publish({ 'topic' }, 1, 2)
                assert.is_equal(sub, busted.unsubscribe(sub.id, { 'topic' }))
                busted.publish({ 'topic' }, 3)
                assert.are.same({ 1, 2 }, got)
              end)
              it('cannot be changed', function()
                assert.has_error(function() busted.it = print end)
                assert.has_error(function() busted.new_field = 1 end)
              end)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "export_spec.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(summary(outcome.standardOutput) == "3 passed, 0 failed")
    }

    @Test func curriedDeclarationsDeclare() throws {
        let scratch = try Scratch()
        try scratch.write("sugar.lua", """
            describe 'sugar' (function()
              it 'works' (function() assert(true) end)
              test 'too' (function() end)
              teardown('with a name', function() end)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "sugar.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("PASS sugar works"))
        #expect(summary(outcome.standardOutput) == "2 passed, 0 failed")
    }

    @Test func randomizeShufflesABlockAsBustedDoes() throws {
        let scratch = try Scratch()
        try scratch.write("random.lua", """
            local order, natural = {}, {}
            describe('shuffled', function()
              randomize(3210)
              for i = 1, 10 do it('t' .. i, function() order[#order + 1] = i end) end
            end)
            describe('kept', function()
              randomize()
              randomize(false)
              for i = 1, 5 do it('n' .. i, function() natural[#natural + 1] = i end) end
            end)
            it('checks the orders', function()
              math.randomseed(3210)
              local t = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }
              for n = #t, 2, -1 do local k = math.random(n) t[n], t[k] = t[k], t[n] end
              assert.are.same(t, order)
              assert.are.same({ 1, 2, 3, 4, 5 }, natural)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "random.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(summary(outcome.standardOutput) == "16 passed, 0 failed")
    }

    @Test func pendingInsideATestMarksItPending() throws {
        let scratch = try Scratch()
        try scratch.write("later.lua", """
            describe('d', function()
              it('is not written yet', function()
                pending('finish this later')
                error('never here')
              end)
              pending('declared pending')
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "--format", "junit", "later.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"2\""))
        #expect(!outcome.standardOutput.contains("never here"))
    }

    @Test func declarationsInsideARunningTestOrHookAreErrors() throws {
        let scratch = try Scratch()
        try scratch.write("nested.lua", """
            describe('d', function()
              before_each(function()
                assert.has_error(it, "'it' not supported inside current context block")
                assert.is_nil(finally)
              end)
              it('declares inside', function()
                it('inner', function() end)
              end)
              it('refuses every declaration', function()
                for _, name in ipairs({ 'describe', 'context', 'insulate', 'expose', 'it', 'spec', 'test',
                    'setup', 'teardown', 'before_each', 'after_each', 'lazy_setup', 'strict_teardown', 'randomize' }) do
                  assert.has_error(_ENV[name], "'" .. name .. "' not supported inside current context block")
                end
                finally(function()
                  assert.has_error(pending, "'pending' not supported inside current context block")
                end)
              end)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "nested.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("ERROR d declares inside"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("nested.lua:7: 'it' not supported inside current context block"))
        #expect(outcome.standardOutput.contains("PASS d refuses every declaration"))
        #expect(summary(outcome.standardOutput) == "1 passed, 0 failed, 1 errored")
    }

    @Test func aBlocksGlobalsStayInItAndExposeLiftsThemOneLevel() throws {
        let scratch = try Scratch()
        try scratch.write("scopes.lua", """
            describe('first', function()
              mine = 'first'
              before_each(function() from_hook = true end)
              it('sees its own', function() assert.equals('first', mine) in_test = true end)
              it('sees the hook but not a sibling test', function()
                assert.is_true(from_hook)
                assert.is_nil(in_test)
              end)
            end)
            describe('second', function()
              it('sees nothing of first', function() assert.is_nil(mine) assert.is_nil(from_hook) end)
            end)
            insulate('outer', function()
              insulate('inner', function()
                expose('lifted', function()
                  _G.lifted = true
                  it('sets it', function() assert.is_true(lifted) end)
                end)
              end)
              it('is kept past the inner insulate', function() assert.is_true(_G.lifted) end)
            end)
            it('is gone past the outer one', function() assert.is_nil(_G.lifted) end)
            """)
        let outcome = try scratch.run("run", "--no-init", "scopes.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(summary(outcome.standardOutput) == "6 passed, 0 failed")
    }

    @Test func strictSetupAndTeardownRunInABlockWithoutTests() throws {
        let scratch = try Scratch()
        try scratch.write("strict.lua", """
            local ran = {}
            describe('outer', function()
              describe('empty', function()
                strict_setup(function() ran[#ran + 1] = 'setup' end)
                strict_teardown(function() ran[#ran + 1] = 'teardown' end)
                lazy_setup(function() ran[#ran + 1] = 'lazy' end)
              end)
              it('saw both', function() assert.are.same({ 'setup', 'teardown' }, ran) end)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "strict.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
    }

    static let mixed = """
        describe('d', function()
          it('fails', function() assert.equals(1, 2) end)
          it('errors', function() local t = nil; return t.x end)
          it('fails through fail', function() require('busted').fail('no') end)
          it('passes', function() end)
        end)
        """

    @Test func failuresAndErrorsAreToldApartInEveryReport() throws {
        let scratch = try Scratch()
        try scratch.write("mixed.lua", Self.mixed)
        let pretty = try scratch.run("run", "--no-init", "mixed.lua")
        #expect(pretty.standardOutput.contains("FAIL d fails"))
        #expect(pretty.standardOutput.contains("ERROR d errors"))
        #expect(pretty.standardOutput.contains("FAIL d fails through fail"))
        #expect(pretty.standardOutput.contains("mixed.lua:4: no"))
        #expect(summary(pretty.standardOutput) == "1 passed, 2 failed, 1 errored")
        let tap = try scratch.run("run", "--no-init", "--format", "tap", "mixed.lua")
        #expect(tap.standardOutput.contains("not ok 2 - d errors\n  ---\n  severity: error\n"), "\(tap.standardOutput)")
        let junit = try scratch.run("run", "--no-init", "--format", "junit", "mixed.lua")
        #expect(junit.standardOutput.contains("tests=\"4\" failures=\"2\" errors=\"1\""), "\(junit.standardOutput)")
        #expect(junit.standardOutput.contains("<error message=\"mixed.lua:3: attempt to index a nil value"))
    }

    @Test func hookErrorsAreCountedAsBustedCountsThem() throws {
        let scratch = try Scratch()
        try scratch.write("hooks.lua", """
            describe('bad setup', function()
              setup(function() error('no database') end)
              it('does not run', function() end)
              it('nor this', function() end)
            end)
            describe('bad before_each', function()
              before_each(function() error('no fixture') end)
              it('a', function() end)
            end)
            describe('bad after_each', function()
              after_each(function() error('cannot clean') end)
              it('passes first', function() end)
            end)
            describe('bad teardown', function()
              teardown(function() error('cannot close') end)
              it('passes too', function() end)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "hooks.lua")
        #expect(outcome.status == 1)
        let out = outcome.standardOutput
        #expect(out.contains("ERROR bad setup (setup)"), "\(out)")
        #expect(!out.contains("does not run"))
        #expect(out.contains("ERROR bad before_each a"))
        #expect(out.contains("PASS bad after_each passes first"))
        #expect(out.contains("ERROR bad after_each passes first (after_each)"))
        #expect(out.contains("ERROR bad teardown (teardown)"))
        // busted: 2 successes / 0 failures / 4 errors.
        #expect(summary(out) == "2 passed, 0 failed, 4 errored")
    }

    @Test func aSpecFileThatFailsBeforeItsFirstDescribeIsStillReported() throws {
        let scratch = try Scratch()
        try scratch.write("early_spec.lua", "error('before anything')\ndescribe('d', function() it('t', function() end) end)\n")
        try scratch.write("early.lua", "error('before anything')\n")
        let pretty = try scratch.run("run", "--no-init", "early_spec.lua")
        #expect(pretty.status == 1)
        #expect(pretty.standardOutput.contains("ERROR early_spec.lua:1"), "\(pretty.standardOutput)\(pretty.standardError)")
        let junit = try scratch.run("run", "--no-init", "--format", "junit", "early.lua")
        #expect(junit.status == 1)
        #expect(junit.standardOutput.contains("<error message=\"early.lua:1: before anything\""), "\(junit.standardOutput)")
        let tap = try scratch.run("run", "--no-init", "--format", "tap", "early.lua")
        #expect(tap.standardOutput.contains("not ok 1 - early.lua:1"), "\(tap.standardOutput)")
        // A plain script's error in the pretty format still goes to standard error.
        let plain = try scratch.run("run", "--no-init", "early.lua")
        #expect(plain.status == 1)
        #expect(plain.standardError.contains("before anything"))
    }

    @Test func loadedModulesAreInsulatedByFilesAndInsulateBlocks() throws {
        let scratch = try Scratch()
        try scratch.write("helper.lua", "return { loaded = true }\n")
        try scratch.write("a.lua", """
            insulate('inside', function()
              local helper = require 'helper'
              it('has it', function() assert.is_true(package.loaded.helper.loaded) end)
            end)
            it('is gone after the insulate', function() assert.is_nil(package.loaded.helper) end)
            it('loads it in a test', function() require 'helper' assert.is_not_nil(package.loaded.helper) end)
            """)
        try scratch.write("b.lua", "it('the next file does not', function() assert.is_nil(package.loaded.helper) end)\n")
        let outcome = try scratch.run("run", "--no-init", "a.lua", "b.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(summary(outcome.standardOutput) == "4 passed, 0 failed")
    }

    @Test func plainScriptsHaveLuasOwnAssertAndScenarioFilesLuassertsTable() throws {
        let scratch = try Scratch()
        try scratch.write("envscript.lua", "startup_assert = type(assert)\n")
        try scratch.write("plain.lua", """
            print('plain', type(assert), startup_assert, select('#', pcall(assert, false, nil)), (select(2, pcall(assert, false, nil))))
            print('module', type(require('luassert')))
            """)
        try scratch.write("scenario.lua", """
            before_declaring = type(assert)
            describe('d', function()
              it('has the table', function() assert.equals('table', type(assert)) end)
            end)
            """)
        try scratch.write("top_spec.lua", "assert(type(assert) == 'table')\nit('t', function() end)\n")
        try scratch.write("after.lua", "print('after', type(assert), before_declaring)\n")
        let plain = try scratch.run("run", "plain.lua")
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(plain.standardOutput.contains("plain\tfunction\tfunction\t2\tnil"), "\(plain.standardOutput)")
        let mixed = try scratch.run("run", "--no-init", "scenario.lua", "top_spec.lua", "after.lua")
        #expect(mixed.status == 0, "\(mixed.standardOutput)\(mixed.standardError)")
        #expect(mixed.standardOutput.contains("after\tfunction\tnil"), "\(mixed.standardOutput)")
        #expect(summary(mixed.standardOutput) == "2 passed, 0 failed")
    }

    /// Lua's own tests check `_ENV == _G` in a plain script; busted's scope (a block's globals of its
    /// own) begins at a file's first declaration, or at the first line of a `*_spec.lua` file.
    @Test func aPlainScriptRunsInGlobalsThemselvesAndAScenarioFileFromItsFirstDeclarationOn() throws {
        let scratch = try Scratch()
        try scratch.write("plain.lua", "print('plain', _ENV == _G)\n")
        try scratch.write("scenario.lua", """
            print('before', _ENV == _G)
            describe('d', function()
              x = 1
              it('t', function() assert.equals(1, x) end)
            end)
            describe('sibling', function()
              it('does not see x', function() assert.is_nil(x) end)
            end)
            print('after', _ENV == _G)
            """)
        try scratch.write("first_spec.lua", "print('spec', _ENV == _G)\nit('t', function() end)\n")
        let run = try scratch.run("run", "--no-init", "plain.lua", "scenario.lua", "first_spec.lua", "plain.lua")
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("plain") } == ["plain\ttrue", "plain\ttrue"], "\(run.standardOutput)")
        #expect(lines.contains("before\ttrue") && lines.contains("after\tfalse") && lines.contains("spec\tfalse"), "\(run.standardOutput)")
        #expect(summary(run.standardOutput) == "3 passed, 0 failed")
    }
}
