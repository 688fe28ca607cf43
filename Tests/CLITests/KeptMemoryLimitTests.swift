import Foundation
import Testing

/// `--memory-limit` covers what the host keeps for a script (flag overrides, state values), not only
/// the Lua heap: a script cannot park more in the host than its limit, and what it replaces or lets
/// go is given back.
@Suite(.timeLimit(.minutes(15))) struct KeptMemoryLimitTests {
    /// The process's peak resident memory in MiB, read by the script itself.
    static let peakMemory = """
        local function peak_mib()
          for line in io.lines('/proc/self/status') do
            local kib = line:match('^VmHWM:%s*(%d+)')
            if kib then return math.tointeger(kib) // 1024 end
          end
        end
        """

    static func run(_ arguments: String..., in scratch: Scratch) throws -> EnvScriptProcess.Outcome {
        try EnvScriptProcess.run(arguments, in: scratch.url, timeout: 120)
    }

    @Test func flagOverridesCountAgainstTheMemoryLimit() throws {
        let scratch = try Scratch()
        try scratch.write("kept.lua", Self.peakMemory + """

            local piece = string.rep('x', 4 << 20)
            for i = 1, 40 do
              tweak.set('big', 'v' .. i, piece)
              print(i, peak_mib())
            end
            """)
        let outcome = try Self.run("run", "--no-init", "--memory-limit", "32", "--allow", "io", "kept.lua", in: scratch)
        #expect(outcome.status == 1, "\(outcome.standardOutput)")
        #expect(outcome.standardError.contains(
            "kept.lua:9: tweak.set would keep 4.0 MiB for the script in the host, beyond its memory limit of 32.0 MiB"),
            "\(outcome.standardError)")
        // 4 MiB in Lua leaves room for at most 7 values of 4 MiB in 32 MiB.
        let kept = outcome.standardOutput.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(kept.count < 8, "\(outcome.standardOutput)")
        let peak = kept.last.flatMap { Int($0[1]) } ?? .max
        #expect(peak < 200, "peak resident memory \(peak) MiB")
    }

    /// Two places written alike once ("a b"/"c" and "a"/"b c") were charged as one; a reset of every
    /// override gave nothing back.
    @Test func everyOverrideIsChargedOnItsOwnAndAResetGivesAllBack() throws {
        let scratch = try Scratch()
        try scratch.write("places.lua", """
            local piece = string.rep('x', 4 << 20)
            local words = {}
            for i = 1, 12 do words[i] = 'w' .. i end
            local kept = 0
            for split = 1, 11 do
              local ok, message = pcall(tweak.set, table.concat(words, ' ', 1, split), table.concat(words, ' ', split + 1), piece)
              if not ok then print(message) break end
              kept = split
            end
            print('kept ' .. kept)
            tweak.delete_all_overrides()
            for i = 1, 5 do tweak.set('again', 'v' .. i, piece) end
            print('after reset: 5 kept')
            """)
        let outcome = try Self.run("run", "--no-init", "--memory-limit", "32", "places.lua", in: scratch)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("tweak.set would keep 4.0 MiB"), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("kept 11"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("after reset: 5 kept"), "\(outcome.standardOutput)")
    }

    @Test func stateValuesCountAgainstTheMemoryLimitAndAPcallGoesOn() throws {
        let scratch = try Scratch()
        try scratch.write("state.lua", """
            local piece = string.rep('s', 4 << 20)
            local kept = 0
            for i = 1, 40 do
              state.memory('key' .. i, '')
              local ok, message = pcall(state.set, 'key' .. i, piece)
              if not ok then print(message) break end
              kept = i
            end
            print('kept ' .. kept)
            """)
        let outcome = try Self.run("run", "--no-init", "--memory-limit", "32", "state.lua", in: scratch)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("state.set would keep 4.0 MiB for the script in the host"), "\(outcome.standardOutput)")
        let last = outcome.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        let kept = Int(last.dropFirst("kept ".count)) ?? .max
        #expect(kept < 8, "\(outcome.standardOutput)")
    }

    @Test func replacedAndDeletedValuesAreGivenBack() throws {
        let scratch = try Scratch()
        try scratch.write("churn.lua", """
            local piece = string.rep('y', 1 << 20)
            for round = 1, 50 do
              for i = 1, 8 do tweak.set('f', 'v' .. i, piece .. round) end
              state.memory('s' .. round % 4, piece)
              state.set('s' .. round % 4, piece .. round)
            end
            for i = 1, 8 do tweak.delete('f', 'v' .. i) end
            for i = 0, 3 do state.reset('s' .. i) end
            state.reset_all()
            -- What the host kept is given back: Lua may hold nearly the whole limit again.
            local big = {}
            for i = 1, 20 do big[i] = string.rep('z', 1 << 20) .. i end
            print('done')
            """)
        // Thousands of synced writes: on a loaded machine they outlast run's 30 s per stage, which is
        // not what this test is about.
        let outcome = try Self.run("run", "--no-init", "--memory-limit", "32", "--test-timeout", "0", "churn.lua", in: scratch)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "done\n")
    }

    /// What a script makes the host keep besides values is charged too (the security review: 40 override
    /// names of 8 MiB kept 1.4 GB, state keys 681 MB, 60 OFREP contexts of 6 MiB 784 MB, 300,000
    /// tweak.on_change handlers 284 MB): each loop is refused within the limit, and the process stays small.
    @Test(arguments: [
        ("tweak.set(string.rep('n', 2 << 20) .. i, 'v', 1)", 40),
        ("state.memory(string.rep('k', 2 << 20) .. i, 1)", 40),
        ("tweak.ofrep{ url = 'http://127.0.0.1:9', name = 'o' .. i, context = { blob = string.rep('c', 2 << 20) } }", 60),
        ("tweak.on_change(function() end)", 300_000),
        // Under one name: each provider is charged on its own, not instead of the one before.
        ("(function() kept = kept or {} kept[#kept + 1] = tweak.ofrep{ url = 'http://127.0.0.1:9', name = 'same', context = { blob = string.rep('c', 2 << 20) } } end)()", 60),
    ])
    func namesContextsAndHandlersCountAgainstTheMemoryLimit(_ call: String, _ times: Int) throws {
        let scratch = try Scratch()
        try scratch.write("kept.lua", Self.peakMemory + """

            local done = 0
            for i = 1, \(times) do
              local ok, message = pcall(function() return \(call) end)
              if not ok then print(message) break end
              done = i
            end
            print('done ' .. done .. ' peak ' .. peak_mib())
            """)
        let outcome = try Self.run(
            "run", "--no-init", "--memory-limit", "32", "--allow", "io", "--allow-net", "127.0.0.1:9", "kept.lua", in: scratch)
        // Refused by the host with a message the script catches, or, once what the host keeps leaves
        // the Lua heap no room, stopped by the memory limit itself.
        let refused = outcome.status == 0 && outcome.standardOutput.contains("would keep")
        let stopped = outcome.status == 1 && outcome.standardError.contains("memory limit of 32 MiB exceeded")
        #expect(refused || stopped, "\(outcome.standardOutput)\(outcome.standardError)")
        if stopped { return }
        let last = outcome.standardOutput.split(separator: "\n").last.map { $0.split(separator: " ") } ?? []
        let done = last.count == 4 ? Int(last[1]) ?? .max : .max
        let peak = last.count == 4 ? Int(last[3]) ?? .max : .max
        #expect(done < times, "\(outcome.standardOutput)")
        #expect(peak < 300, "peak \(peak) MiB: \(outcome.standardOutput)")
    }
}
