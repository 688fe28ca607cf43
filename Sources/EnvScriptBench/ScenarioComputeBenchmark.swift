import Foundation

/// A spec file whose tests compute — a pure-Lua SHA-1 (scripts/bench-lua/sha1.lua) of a few hundred
/// kilobytes — run by `envscript run` against `busted --lua=lua5.4` in the same run: a QA suite's
/// CPU-heavy tests must be no slower than under busted. Best wall time of a whole run over a few runs
/// taken in alternation.
enum ScenarioComputeBenchmark {
    static let repeats = 3
    static let tests = 6

    static func specFile() -> String {
        """
        local sha1 = require('sha1')
        describe('hashing', function()
          local text = string.rep('The quick brown fox jumps over the lazy dog. ', 4000)
          for round = 1, \(tests) do
            it('hashes round ' .. round, function()
              local digest = sha1(text .. round)
              assert.are.equal(40, #digest)
              assert.are_not.equal(sha1(text), digest)
            end)
          end
          it('knows abc', function() assert.are.equal('a9993e364706816aba3e25717850c26c9cd0d89d', sha1('abc')) end)
        end)

        """
    }

    static func run(_ report: BenchReport) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let envscript = environment["ENVSCRIPT_BENCH_BINARY"], let sha1 = environment["ENVSCRIPT_BENCH_SHA1"] else {
            throw BenchFailure("the scenarios group needs ENVSCRIPT_BENCH_BINARY and ENVSCRIPT_BENCH_SHA1; run it through scripts/bench")
        }
        let busted = try ChildProgram.installed("busted", package: "lua-busted")
        let folder = try benchFolder("compute")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: sha1, toPath: folder.appendingPathComponent("sha1.lua").path)
        try specFile().write(to: folder.appendingPathComponent("hashing_spec.lua"), atomically: true, encoding: .utf8)
        let ours = ChildProgram(arguments: [envscript, "run", "--no-init", "--format", "tap", "hashing_spec.lua"])
        let theirs = ChildProgram(arguments: [busted, "--lua=lua5.4", "--output", "TAP", "hashing_spec.lua"])
        benchProgress("scenarios", "a pure-Lua SHA-1 in \(tests + 1) tests, envscript run against busted --lua=lua5.4, \(repeats) runs each in alternation")
        let (ourTime, bustedTime) = try bestOfAlternating(repeats, measured: {
            try timedTAPRun(ours, in: folder, tests: tests + 1, what: "envscript run")
        }, baseline: {
            try timedTAPRun(theirs, in: folder, tests: tests + 1, what: "busted --lua=lua5.4")
        })
        report.figure("scenarios.sha1_busted_lua54", bustedTime / 1e6, "ms")
        report.figure("scenarios.sha1_envscript_run", ourTime / 1e6, "ms")
        report.ratio("scenarios.sha1_envscript_vs_busted", ourTime, over: bustedTime, target: 1.0)
    }
}
