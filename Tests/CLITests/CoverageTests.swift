import Foundation
import Testing

/// `envscript run --coverage` writes what busted `--coverage` writes with LuaCov (issue #45): LuaCov's
/// stats file, with `.luacov`'s choice of files, and an lcov tracefile with every line that holds code.
@Suite(.timeLimit(.minutes(10))) struct CoverageTests {
    /// LuaCov's stats file read back: file name → counts of lines 1...max.
    private func stats(_ text: String) -> [String: [Int]] {
        var files: [String: [Int]] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        while index + 1 < lines.count {
            let head = lines[index]
            guard let colon = head.firstIndex(of: ":"), let last = Int(head[..<colon]) else { break }
            let counts = lines[index + 1].split(separator: " ").compactMap { Int($0) }
            #expect(counts.count == last, "\(head)")
            files[String(head[head.index(after: colon)...])] = counts
            index += 2
        }
        return files
    }

    @Test func coverageCountsSpecsModulesAndStartupHooksAsLuaCovWould() throws {
        let scratch = try Scratch()
        try scratch.write("src/shapes.lua", """
            local shapes = {}
            function shapes.area(w, h)
              if w < 0 then
                error('negative')
              end
              return w * h
            end
            return shapes
            """)
        try scratch.write("envscript.lua", """
            container.on_will_change(function(to)
              last_switch = to.name
            end)
            """)
        try scratch.write("spec/shapes_spec.lua", """
            local shapes = require 'shapes'
            describe('shapes', function()
              it('multiplies', function()
                for _ = 1, 3 do assert.equal(6, shapes.area(2, 3)) end
              end)
              it('switches', function()
                container.create('B')
                container.activate('B')
              end)
            end)
            """)
        try scratch.write(".luacov", "exclude = { 'spec/' }\n")
        let outcome = try scratch.run("run", "--coverage")
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardError.contains("envscript: coverage written to luacov.stats.out and lcov.info"))
        let counted = stats(try String(contentsOf: scratch.url.appendingPathComponent("luacov.stats.out"), encoding: .utf8))
        #expect(Set(counted.keys) == ["src/shapes.lua", "envscript.lua"], "\(counted.keys)")
        // Each line as often as LuaCov's line hook would count it: the call three times, the branch
        // never taken, the module's top level once.
        #expect(counted["src/shapes.lua"] == [1, 1, 3, 0, 0, 3, 1, 1], "\(counted)")
        // The hook's body ran once, for the one switch.
        #expect(counted["envscript.lua"]?[1] == 1, "\(counted)")
        #expect((counted["envscript.lua"]?[0] ?? 0) >= 1)
        let lcov = try String(contentsOf: scratch.url.appendingPathComponent("lcov.info"), encoding: .utf8)
        #expect(lcov.contains("SF:src/shapes.lua\nDA:1,1\nDA:2,1\nDA:3,3\nDA:4,0\nDA:6,3\nDA:7,1\nDA:8,1\nLF:7\nLH:6\nend_of_record\n"), "\(lcov)")
        // Without --coverage nothing is counted or written.
        try FileManager.default.removeItem(at: scratch.url.appendingPathComponent("lcov.info"))
        #expect(try scratch.run("run").status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("lcov.info").path))
    }

    @Test func onlyFilesTheHostLoadedCountAndTheStatsFileStaysInTheProject() throws {
        let scratch = try Scratch()
        try scratch.write("spec/a_spec.lua", """
            -- A chunk name a script makes up is no file: not counted, not read again, not listed.
            load('return 1', '@/etc/hostname')()
            load('return 1', '@x\\nINJECTED LINE\\n')()
            describe('a', function() it('runs', function() end) end)
            """)
        let outcome = try scratch.run("run", "--coverage")
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        let stats = try String(contentsOf: scratch.url.appendingPathComponent("luacov.stats.out"), encoding: .utf8)
        #expect(stats.hasPrefix("4:spec/a_spec.lua\n"), "\(stats)")
        #expect(!stats.contains("hostname") && !stats.contains("INJECTED"))
        let outside = try Scratch()
        try scratch.write(".luacov", "statsfile = '\(outside.url.path)/stats.out'\n")
        let refused = try scratch.run("run", "--coverage")
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("lies outside the project's folder and the folders granted with --allow-write"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: outside.url.appendingPathComponent("stats.out").path))
        #expect(try scratch.run("run", "--coverage", "--allow-write", outside.url.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: outside.url.appendingPathComponent("stats.out").path))
    }

    @Test func aCoverageFileThatCannotBeWrittenFailsTheRun() throws {
        let scratch = try Scratch()
        try scratch.write("spec/a_spec.lua", "describe('a', function() it('runs', function() end) end)\n")
        try scratch.write(".luacov", "statsfile = 'missing/folder/stats.out'\n")
        let outcome = try scratch.run("run", "-c")
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("cannot write the coverage file missing/folder/stats.out"), "\(outcome.standardError)")
    }
}
