import Foundation
import Testing

/// The runner's busted surface on the command line: tags, listing, shuffling with a seed, repetition,
/// fail-fast, and the lifecycle's failures (a setup that fails, a teardown that fails, `finally` after
/// a failing body). The assertions themselves are exercised by examples/scenarios/busted_surface.lua
/// (ExampleTests).
@Suite(.timeLimit(.minutes(15))) struct RunnerSurfaceTests {
    static let tagged = """
        describe("checkout #slow", function()
          it("pays #smoke", function() end)
          it("refunds", function() end)
        end)
        describe("login", function()
          it("signs in #smoke", function() end)
          it("signs out", function() end)
        end)
        """

    @Test func tagsSelectAndExcludeTestsByTheirOwnOrTheirBlocksTags() throws {
        let scratch = try Scratch()
        try scratch.write("tags.lua", Self.tagged)
        let smoke = try scratch.run("run", "--no-init", "--tags", "#smoke", "tags.lua")
        #expect(smoke.status == 0, "\(smoke.standardError)")
        #expect(smoke.standardOutput.contains("PASS checkout #slow pays #smoke"))
        #expect(smoke.standardOutput.contains("PASS login signs in #smoke"))
        #expect(smoke.standardOutput.hasSuffix("2 passed, 0 failed\n"))
        let notSlow = try scratch.run("run", "--no-init", "--exclude-tags", "slow", "--tags", "smoke,nothing", "tags.lua")
        #expect(notSlow.standardOutput.hasSuffix("1 passed, 0 failed\n"), "\(notSlow.standardOutput)")
        #expect(notSlow.standardOutput.contains("login signs in"))
        let bad = try scratch.run("run", "--no-init", "--tags", "two words", "tags.lua")
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("a tag is a word without spaces"))
    }

    @Test func listShowsTheSelectedTestsWithoutRunningThem() throws {
        let scratch = try Scratch()
        try scratch.write("tags.lua", Self.tagged + "\nit('never runs', function() error('ran') end)\n")
        let list = try scratch.run("run", "--no-init", "--list", "--exclude-tags", "slow", "tags.lua")
        #expect(list.status == 0)
        #expect(list.standardOutput == "tags.lua: login signs in #smoke\ntags.lua: login signs out\ntags.lua: never runs\n")
    }

    @Test func aSeedGivesTheSameShuffledOrderAgainAndIsPrinted() throws {
        let scratch = try Scratch()
        let tests = (1...12).map { "  it('t\($0)', function() end)" }.joined(separator: "\n")
        try scratch.write("many.lua", "describe('s', function()\n\(tests)\nend)\n")
        func order(_ arguments: String...) throws -> (names: [String], seedLine: String) {
            let outcome = try scratch.run(["run", "--no-init"] + arguments + ["many.lua"])
            #expect(outcome.status == 0)
            let names = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("PASS") }
                .map { String($0.split(separator: " ")[2]) }
            return (names, outcome.standardError)
        }
        let plain = try order()
        #expect(plain.names == (1...12).map { "t\($0)" })
        #expect(plain.seedLine.isEmpty)
        let first = try order("--seed", "1234")
        let again = try order("--seed", "1234")
        #expect(first.names == again.names)
        #expect(first.names != plain.names)
        #expect(Set(first.names) == Set(plain.names))
        #expect(first.seedLine.contains("tests shuffled with --seed 1234"))
        let random = try order("--shuffle")
        let seed = try #require(random.seedLine.split(separator: " ").last.map { String($0.dropLast(0)).trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(try order("--seed", seed).names == random.names, "the printed seed gives the order back")
    }

    @Test func repeatRunsEveryPassWithItsSetupsAndFailFastStopsAtTheFirstFailure() throws {
        let scratch = try Scratch()
        try scratch.write("passes.lua", """
            local setups = 0
            describe('d', function()
              setup(function() setups = setups + 1 end)
              it('counts', function() assert.is_true(setups >= 1) end)
              it('fails on the second pass', function() assert.equals(1, setups) end)
              it('after', function() end)
            end)
            """)
        let repeated = try scratch.run("run", "--no-init", "--repeat", "2", "passes.lua")
        #expect(repeated.status == 1)
        #expect(repeated.standardOutput.hasSuffix("5 passed, 1 failed\n"), "\(repeated.standardOutput)")
        let fast = try scratch.run("run", "--no-init", "--repeat", "2", "--fail-fast", "passes.lua")
        #expect(fast.status == 1)
        #expect(fast.standardOutput.hasSuffix("4 passed, 1 failed, 1 not run (stopped by --fail-fast after the first failure)\n"),
                "\(fast.standardOutput)")
        #expect(try scratch.run("run", "--no-init", "--repeat", "0", "passes.lua").status == 2)
    }

    /// Hooks fail as busted's do: a setup that fails is an error of its block, whose tests do not run
    /// (nor are they reported); a teardown that fails is an error of its own.
    @Test func aFailingSetupFailsItsBlockAndAFailingTeardownIsReported() throws {
        let scratch = try Scratch()
        try scratch.write("life.lua", """
            local log = {}
            describe('broken setup', function()
              setup(function() error('no database') end)
              it('one', function() log[#log + 1] = 'one ran' end)
              it('two', function() end)
            end)
            describe('broken teardown', function()
              teardown(function() error('cannot clean') end)
              it('runs', function()
                finally(function() log[#log + 1] = 'finally' end)
                error('body failed')
              end)
            end)
            it('sees what ran', function() assert.are.same({ 'finally' }, log) end)
            """)
        let outcome = try scratch.run("run", "--no-init", "life.lua")
        #expect(outcome.status == 1)
        let out = outcome.standardOutput
        #expect(out.contains("ERROR broken setup (setup)"))
        #expect(out.contains("setup failed: life.lua:3: no database"))
        #expect(!out.contains("broken setup one"))
        #expect(out.contains("ERROR broken teardown runs"))
        #expect(out.contains("life.lua:11: body failed"))
        #expect(out.contains("ERROR broken teardown (teardown)"))
        #expect(out.contains("teardown failed: life.lua:8: cannot clean"))
        #expect(out.contains("PASS sees what ran"))
        #expect(out.hasSuffix("1 passed, 0 failed, 3 errored\n"), "\(out)")
    }

    @Test func filesAreInsulatedFromEachOther() throws {
        let scratch = try Scratch()
        try scratch.write("a.lua", "leaked = 'from a'\nit('a sets a global', function() also_leaked = true end)\n")
        try scratch.write("b.lua", "it('b does not see it', function() assert.is_nil(leaked) assert.is_nil(also_leaked) end)\n")
        let outcome = try scratch.run("run", "--no-init", "a.lua", "b.lua")
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
    }

    /// Found in review: a block inside one whose setup failed was never entered, yet its teardown ran;
    /// and a lazy teardown ran again in a pass where its block was not entered.
    @Test func blocksThatWereNotEnteredAreNotTornDown() throws {
        let scratch = try Scratch()
        try scratch.write("nested.lua", """
            local pass = 0
            describe('A', function()
              setup(function() pass = pass + 1 if pass == 2 then error('A broke on pass 2') end end)
              describe('B', function()
                local server
                setup(function() server = { close = function() end } end)
                teardown(function() server.close() end)
                lazy_setup(function() end)
                lazy_teardown(function() server.close() end)
                it('t', function() end)
              end)
            end)
            """)
        let outcome = try scratch.run("run", "--no-init", "--repeat", "2", "nested.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("setup failed: nested.lua:3: A broke on pass 2"))
        #expect(!outcome.standardOutput.contains("(teardown)"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.hasSuffix("1 passed, 0 failed, 1 errored\n"), "\(outcome.standardOutput)")
    }

    /// Found in review: the frames of a scenario run as `scenarios/x.lua` were taken for the prelude's.
    @Test func aScenarioInAFolderNamedScenariosKeepsItsFrames() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        try scratch.write("scenarios/x.lua", """
            local function check(value) assert.is_true(value) end
            it('fails in a helper', function() check(false) end)
            """)
        let outcome = try scratch.run("run", "--no-init", "scenarios/x.lua")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("scenarios/x.lua:1: in "), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("scenarios/x.lua:2: in "))
        #expect(!outcome.standardOutput.contains("[envscript]/"))
    }
}
