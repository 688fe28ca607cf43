import Foundation

/// A 200-file suite of small CPU-bound specs run by `envscript run --jobs 2` against `--jobs 1` in the
/// same run: what worker processes give a suite on two cores (each worker's start-up included). The
/// figure is the best wall time of a whole run over a few runs taken in alternation.
enum ScenarioJobsBenchmark {
    static let files = 200
    static let testsPerFile = 3
    static let repeats = 3

    /// One spec file: a few tests of integer arithmetic and table work, about 10 ms together.
    static func specFile(_ index: Int) -> String {
        """
        describe('file \(index)', function()
          local function work(n)
            local t, acc = {}, \(index)
            for i = 1, n do acc = (acc * 31 + i) % 1000003; t[i % 256 + 1] = acc end
            return acc, #t
          end
          it('computes', function() local acc, size = work(500000) assert.is_true(acc >= 0) assert.are.equal(256, size) end)
          it('computes again', function() local acc = work(300000) assert.is_number(acc) end)
          it('compares', function() assert.are.same({ 1, 2, { 3 } }, { 1, 2, { 3 } }) end)
        end)

        """
    }

    static func run(_ report: BenchReport) throws {
        guard let envscript = ProcessInfo.processInfo.environment["ENVSCRIPT_BENCH_BINARY"] else {
            throw BenchFailure("the scenarios group needs ENVSCRIPT_BENCH_BINARY; run it through scripts/bench")
        }
        let folder = try benchFolder("jobs")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("spec"), withIntermediateDirectories: true)
        for index in 1...files {
            try specFile(index).write(to: folder.appendingPathComponent("spec/file\(index)_spec.lua"), atomically: true, encoding: .utf8)
        }
        let two = ChildProgram(arguments: [envscript, "run", "--no-init", "--format", "tap", "--jobs", "2"])
        let one = ChildProgram(arguments: [envscript, "run", "--no-init", "--format", "tap", "--jobs", "1"])
        benchProgress("scenarios", "\(files) spec files, envscript run --jobs 2 against --jobs 1, \(repeats) runs each in alternation")
        let (twoTime, oneTime) = try bestOfAlternating(repeats, measured: {
            try timedTAPRun(two, in: folder, tests: files * testsPerFile, what: "envscript run --jobs 2")
        }, baseline: {
            try timedTAPRun(one, in: folder, tests: files * testsPerFile, what: "envscript run --jobs 1")
        })
        report.figure("scenarios.jobs_1", oneTime / 1e6, "ms (\(files) files, \(files * testsPerFile) tests)")
        report.figure("scenarios.jobs_2", twoTime / 1e6, "ms (the same, two worker processes)")
        report.speedup("scenarios.jobs_2_over_jobs_1", oneTime / twoTime, target: 1.8)
    }
}
