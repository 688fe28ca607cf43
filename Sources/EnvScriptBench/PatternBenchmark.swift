import LuaBenchBaseline
import LuaBridge

/// The sandbox's pattern functions, which charge every matcher step to the instruction budget,
/// against stock Lua's on the same text; and how long a pathological pattern takes to be stopped.
enum PatternBenchmark {
    static let repeats = 7

    /// Ordinary pattern work over a 2 MB text: gmatch with captures, gsub, find and match.
    static let work = """
        local text = string.rep("user=alice; id=42; note=hello world; ", 50000)
        local count = 0
        for key, value in string.gmatch(text, "(%w+)=(%w+)") do count = count + #key + #value end
        local replaced, n = string.gsub(text, "id=(%d+)", "id=<%1>")
        count = count + n + #replaced
        local at = 1
        while true do
          local s, e = string.find(text, "note=%a+ %a+;", at)
          if not s then break end
          count = count + 1
          at = e + 1
        end
        return count
        """

    static let pathological = #"return string.find(string.rep("a", 1e6), ".-.-.-.-.-.-.-b")"#

    static func run(_ report: BenchReport) throws {
        var expected: Int64 = 0
        let (sandboxed, stock) = try bestOfAlternating(repeats, measured: {
            let lua = try LuaState()
            let chunk = try lua.load(work, chunkName: "=patterns")
            var result = 0
            let elapsed = try nanoseconds { result = try chunk.call(returning: Int.self) }
            try BridgeBenchmark.check(expected == 0 || Int64(result) == expected, "sandbox patterns")
            return elapsed / 1e6
        }, baseline: {
            var result: Int64 = 0
            let elapsed = lbb_run_stock_chunk(work, &result)
            try BridgeBenchmark.check(elapsed >= 0, "stock patterns")
            expected = result
            return elapsed / 1e6
        })
        report.figure("patterns.stock_lua", stock, "ms")
        report.figure("patterns.sandbox_with_budget", sandboxed, "ms")
        report.ratio("patterns.sandbox_vs_stock", sandboxed, over: stock, target: 1.5)

        let stopped = try bestOf(3) {
            let lua = try LuaState()
            var kind: LuaError.Kind?
            let elapsed = try nanoseconds {
                do { _ = try lua.execute(pathological) } catch let error as LuaError { kind = error.kind }
            }
            try BridgeBenchmark.check(kind == .instructionLimit, "pathological pattern stopped by the budget")
            return elapsed / 1e6
        }
        report.figure("patterns.pathological_stopped_after", stopped, "ms (default budget, 100M)")
    }
}
