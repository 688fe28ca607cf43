import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `envscript run --jobs N` and `--shard K/N`: spec files in worker processes, one report in file order
/// as one process writes it, Ctrl-C and --fail-fast reaching every worker, and a deterministic split
/// of the files for CI machines.
@Suite(.timeLimit(.minutes(10))) struct RunJobsTests {
    /// A project of `count` spec files: each prints a line, passes a test, and the third fails one.
    static func project(files count: Int = 6) throws -> Scratch {
        let scratch = try Scratch()
        for index in 1...count {
            try scratch.write("spec/f\(index)_spec.lua", """
                describe('file \(index)', function()
                  it('computes', function()
                    local x = 0 for k = 1, 1e5 do x = x + k % 7 end
                    print('printed by \(index)')
                    assert.is_true(x > 0)
                  end)
                  it('checks', function() assert.are.equal(\(index), \(index == 3 ? 4 : index)) end)
                  describe('inner', function()
                    it('#tagged runs', function() end)
                  end)
                end)
                """)
        }
        return scratch
    }

    /// The report without its timings.
    static func untimed(_ text: String) -> String {
        text.replacing(/\([0-9.]+ ms\)/, with: "")
            .replacing(/time="[0-9.e-]+"/, with: "")
            .replacing(/"duration":[0-9.e-]+/, with: "")
            .replacing(/timestamp="[^"]*"/, with: "")
    }

    @Test func severalJobsWriteTheReportOneProcessWritesInEveryFormat() throws {
        let scratch = try Self.project()
        for format in ["pretty", "tap", "junit", "json"] {
            let one = try scratch.run("run", "--jobs", "1", "--format", format)
            let three = try scratch.run("run", "--jobs", "3", "--format", format)
            #expect(one.status == 1)
            #expect(three.status == one.status)
            #expect(Self.untimed(three.standardOutput) == Self.untimed(one.standardOutput), "\(format)")
        }
        // Each file's output comes together, in file order, before its results.
        let pretty = try scratch.run("run", "--jobs", "2")
        let lines = pretty.standardOutput.split(separator: "\n").map(String.init)
        for index in 1...6 {
            let printed = try #require(lines.firstIndex(of: "printed by \(index)"))
            #expect(lines[printed + 1].hasPrefix("PASS file \(index) computes"))
        }
        #expect(lines.last == "17 passed, 1 failed")
    }

    @Test func aShuffleIsTheSameWithAnyNumberOfJobsAndRepeatsComePassByPass() throws {
        let scratch = try Self.project()
        func results(_ arguments: String...) throws -> [String] {
            let outcome = try scratch.run(["run"] + arguments)
            #expect(outcome.standardError.contains("shuffled with --seed 4"))
            return Self.untimed(outcome.standardOutput).split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }
        }
        let one = try results("--jobs", "1", "--seed", "42", "--repeat", "2")
        #expect(one.count == 36)
        #expect(try results("--jobs", "2", "--seed", "42", "--repeat", "2") == one)
        #expect(try results("--jobs", "4", "--seed", "42", "--repeat", "2") == one)
        #expect(try results("--jobs", "1", "--seed", "43", "--repeat", "2") != one)
    }

    @Test func shardsSplitTheFilesOnceAndAlike() throws {
        let scratch = try Self.project(files: 7)
        var seen: [String] = []
        for index in 1...3 {
            let listed = try scratch.run("run", "--shard", "\(index)/3", "--list")
            #expect(listed.status == 0)
            let files = Set(listed.standardOutput.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
            #expect(files.count == (index == 1 ? 3 : 2), "\(listed.standardOutput)")
            seen += files
            // The same split on every run.
            #expect(try scratch.run("run", "--shard", "\(index)/3", "--list").standardOutput == listed.standardOutput)
        }
        #expect(seen.sorted() == (1...7).map { "spec/f\($0)_spec.lua" }.sorted())
        // More shards than files: the empty ones pass.
        let empty = try scratch.run("run", "--shard", "9/9")
        #expect(empty.status == 0, "\(empty.standardError)")
        #expect(empty.standardOutput.contains("0 passed, 0 failed"))
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            let refused = try scratch.run("run", "--shard", bad)
            #expect(refused.status == 2)
            #expect(refused.standardError.contains("--shard takes K/N"), "\(bad): \(refused.standardError)")
        }
    }

    @Test func homeAndSeveralJobsAreRefusedAndASyntaxErrorRunsNothing() throws {
        let scratch = try Self.project()
        let refused = try scratch.run("run", "--jobs", "2", "--home", scratch.url.appendingPathComponent("home").path)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("--home runs every file in one home"))
        try scratch.write("spec/f6_spec.lua", "describe('broken', function(\n")
        let broken = try scratch.run("run", "--jobs", "3")
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("f6_spec.lua"), "\(broken.standardError)")
        #expect(!broken.standardOutput.contains("PASS"), "\(broken.standardOutput)")
    }

    /// Found in review: the worker's options came after `--`, where they are files, and each worker
    /// started workers of its own.
    @Test func filesAfterDoubleDashRunOnce() throws {
        let scratch = try Self.project(files: 3)
        let dashed = try scratch.run("run", "--jobs", "2", "--", "spec")
        #expect(dashed.status == 1)
        #expect(dashed.standardOutput.hasSuffix("8 passed, 1 failed\n"), "\(dashed.standardOutput)")
    }

    @Test func aFileUsingExposeRunsTheFilesInOneProcessUnlessJobsAreGiven() throws {
        let scratch = try Scratch()
        try scratch.write("spec/a_spec.lua", "expose('shared', function() _G.SHARED = 'set' it('sets', function() end) end)\n")
        try scratch.write("spec/b_spec.lua", "describe('reads', function() it('sees it', function() assert.are.equal('set', SHARED) end) end)\n")
        let outcome = try scratch.run("run")
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(outcome.standardError.contains("uses expose"))
    }

    @Test func aWorkerThatDiesFailsItsFileAndTheOthersRun() throws {
        let scratch = try Self.project(files: 4)
        try scratch.write("spec/f2_spec.lua", """
            describe('dies', function()
              it('kills its process', function() os.execute('kill -9 $PPID') end)
            end)
            """)
        let outcome = try scratch.run("run", "--jobs", "2", "--allow", "os")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("ERROR spec/f2_spec.lua"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("was killed by signal 9"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("PASS file 4 computes"), "\(outcome.standardOutput)")
    }

    @Test func coverageIsCountedAcrossWorkers() throws {
        let scratch = try Self.project(files: 4)
        try scratch.write("src/counter.lua", "local M = {}\nfunction M.add(a, b)\n  return a + b\nend\nreturn M\n")
        for index in 1...4 {
            try scratch.write("spec/f\(index)_spec.lua", "local c = require('counter')\nit('adds', function() assert.are.equal(\(index + 1), c.add(\(index), 1)) end)\n")
        }
        let statsFile = scratch.url.appendingPathComponent("luacov.stats.out")
        _ = try scratch.run("run", "--jobs", "1", "--coverage")
        let one = try String(contentsOf: statsFile, encoding: .utf8)
        try FileManager.default.removeItem(at: statsFile)
        let two = try scratch.run("run", "--jobs", "2", "--coverage")
        #expect(two.status == 0, "\(two.standardError)")
        #expect(try String(contentsOf: statsFile, encoding: .utf8) == one)
        #expect(one.contains("src/counter.lua"))
    }

    /// Long files: Ctrl-C and --fail-fast must reach the workers running them.
    static func longProject(_ scratch: Scratch, files count: Int = 4) throws {
        for index in 1...count {
            try scratch.write("spec/long\(index)_spec.lua", """
                describe('long \(index)', function()
                  it('starts', function() io.open('started\(index)', 'w'):close() end)
                  it('spins', function() local x = 0 while true do x = x + 1 end end)
                  it('never runs', function() end)
                end)
                """)
        }
    }

    @Test func ctrlCStopsEveryWorkerAndTheReportIsWritten() async throws {
        let scratch = try Scratch()
        try Self.longProject(scratch)
        let temporary = scratch.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let process = try EnvScriptProcess.start(
            ["run", "--jobs", "2", "--allow", "io", "--test-timeout", "0", "--format", "junit", "--output", "report.xml"],
            in: scratch.url, environment: ["TMPDIR": temporary.path])
        process.yieldsTheProcessor()
        try await waitUntil("both workers run a file", timeout: .seconds(120)) { Self.started(in: scratch) >= 2 }
        let workers = try Self.workers(of: process.pid)
        #expect(workers.count == 2)
        process.send(SIGINT)
        let outcome = process.wait(seconds: 60)
        #expect(outcome.status == 130, "\(outcome.standardError)")
        let report = try String(contentsOf: scratch.url.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(report.contains("stopped by Ctrl-C"), "\(report)")
        #expect(report.contains("interrupted"))
        #expect((1...4).filter { report.contains("long \($0)") }.count == 2, "no file starts after Ctrl-C: \(report)")
        #expect(outcome.standardError.components(separatedBy: "stopping on Ctrl-C").count == 2, "said once: \(outcome.standardError)")
        for worker in workers { #expect(kill(worker, 0) != 0, "worker \(worker) still runs") }
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "temporary folders left: \(left)")
    }

    @Test func failFastStopsTheOtherWorkers() throws {
        let scratch = try Scratch()
        try Self.longProject(scratch, files: 2)
        try scratch.write("spec/long3_spec.lua", """
            describe('fails', function()
              it('waits for the others', function()
                while not (io.open('started1') or io.open('started2')) do end
                error('boom')
              end)
            end)
            """)
        let start = ContinuousClock.now
        let outcome = try scratch.run("run", "--jobs", "3", "--allow", "io", "--test-timeout", "60", "--fail-fast")
        #expect(outcome.status == 1)
        #expect(ContinuousClock.now - start < .seconds(30), "the spinning workers were stopped")
        #expect(outcome.standardOutput.contains("stopped by --fail-fast"), "\(outcome.standardOutput)")
    }

    @Test func workersEndWithTheirRun() async throws {
        let scratch = try Scratch()
        try Self.longProject(scratch, files: 2)
        let process = try EnvScriptProcess.start(["run", "--jobs", "2", "--allow", "io", "--test-timeout", "0"], in: scratch.url)
        process.yieldsTheProcessor()
        try await waitUntil("both workers run a file", timeout: .seconds(120)) { Self.started(in: scratch) >= 2 }
        let workers = try Self.workers(of: process.pid)
        #expect(workers.count == 2)
        process.send(SIGKILL)
        process.wait(seconds: 30)
        try await waitUntil("the workers end", timeout: .seconds(30)) { workers.allSatisfy { kill($0, 0) != 0 } }
    }

    /// How many of the long files have started.
    static func started(in scratch: Scratch) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: scratch.url.path)) ?? []).filter { $0.hasPrefix("started") }.count
    }

    /// The pids of the processes whose parent is `pid`.
    static func workers(of pid: Int32) throws -> [Int32] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == pid
        }
    }
}
