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
}
