import Foundation
import TestSupport
import Testing

/// Several processes writing one home's stores at the same moment: nothing is lost (issue "One home,
/// many processes"). Each process reads the property list, changes its keys and writes it back; the
/// per-key merge under the home's stores lock keeps every other process's keys.
@Suite(.timeLimit(.minutes(15))) struct SharedHomeWriteTests {
    static let processes = 8
    /// How long a writer may take. Each write rewrites the whole store under the home's lock while the
    /// other writers reload it, so on a loaded two-core machine a writer can take minutes; what these
    /// tests check is that nothing is lost, not speed (that is `scripts/bench`'s job).
    static let patience: Double = 600

    /// Starts `count` processes at once, each running `script(index)`, and waits for all of them.
    private func runAtOnce(_ scratch: Scratch, home: String, count: Int, script: (Int) -> String) throws {
        var running: [ChildProcess] = []
        for index in 1...count {
            let file = try scratch.write("writer\(index).lua", script(index))
            // Two hundred synced writes each, eight processes at once: on a loaded machine they outlast
            // run's 30 s per stage, which is not what this test is about.
            running.append(try EnvScriptProcess.start(["run", "--home", home, "--no-init", "--test-timeout", "0", file], in: scratch.url))
        }
        for process in running {
            let outcome = process.wait(seconds: Self.patience)
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
    }

    @Test func eightProcessesSettingDistinctOverridesKeepAllOfThem() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        try runAtOnce(scratch, home: home, count: Self.processes) { index in
            "for i = 1, 200 do tweak.set('writer\(index)', 'k' .. i, i) end"
        }
        let list = try scratch.run("tweak", "list", "--json", "--home", home, "--no-init")
        #expect(list.status == 0, "\(list.standardError)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        #expect(records.count == Self.processes * 200)
        for index in 1...Self.processes {
            let mine = records.filter { $0["feature"] as? String == "writer\(index)" }
            #expect(mine.count == 200, "writer \(index) kept \(mine.count) of 200 overrides")
            #expect(mine.allSatisfy { "k\($0["value"] as? Int ?? -1)" == $0["variable"] as? String })
        }
    }

    @Test func eightProcessesSettingDistinctStoredStateKeepAllOfIt() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        try runAtOnce(scratch, home: home, count: Self.processes) { index in
            """
            for i = 1, 200 do
                local key = 'writer\(index).k' .. i
                state.stored(key, 0)
                state.set(key, i)
            end
            """
        }
        try scratch.write("count.lua", """
            local found = 0
            for writer = 1, \(Self.processes) do
                for i = 1, 200 do
                    local key = 'writer' .. writer .. '.k' .. i
                    state.stored(key, 0)
                    if state.get(key) == i then found = found + 1 end
                end
            end
            print(found)
            """)
        let count = try scratch.run("run", "--home", home, "--no-init", "count.lua")
        #expect(count.status == 0, "\(count.standardError)")
        #expect(count.standardOutput == "\(Self.processes * 200)\n")
    }

    @Test func concurrentTweakSetCommandsKeepEveryOverride() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        let rounds = 40
        for round in 1...rounds {
            let running = try (1...Self.processes).map { index in
                try EnvScriptProcess.start(
                    ["tweak", "set", "cli\(index)", "k\(round)", "\(round)", "--home", home, "--no-init"], in: scratch.url)
            }
            for process in running {
                let outcome = process.wait(seconds: Self.patience)
                #expect(outcome.status == 0, "\(outcome.standardError)")
            }
        }
        let list = try scratch.run("tweak", "list", "--json", "--home", home, "--no-init")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        #expect(records.count == Self.processes * rounds)
    }

    @Test func writersOfOneKeyEndWithOneOfTheWrittenValues() throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        try runAtOnce(scratch, home: home, count: Self.processes) { index in
            "for i = 1, 50 do tweak.set('shared', 'value', \(index) * 1000 + i); tweak.set('own\(index)', 'last', i) end"
        }
        let list = try scratch.run("tweak", "list", "--json", "--home", home, "--no-init")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        let shared = try #require(records.first { $0["feature"] as? String == "shared" }?["value"] as? Int)
        // The last value some writer wrote: its own 50th.
        #expect((1...Self.processes).map { $0 * 1000 + 50 }.contains(shared))
        for index in 1...Self.processes {
            #expect(records.first { $0["feature"] as? String == "own\(index)" }?["value"] as? Int == 50)
        }
    }
}
