import Foundation

/// Lua-heavy work run 50 times in one process by `envscript run` against stock `lua5.4`: string and
/// pattern work checked by many `assert` calls (scripts/bench-lua/lua-heavy.lua, ours, of the character
/// of Lua's testes/pm.lua and strings.lua), and, when `ENVSCRIPT_BENCH_TESTES` names Lua 5.4.4's
/// `testes/` folder, pm.lua and strings.lua themselves.
///
/// One driver script, the same for both programs, loads the workload's text 50 times (as `dofile`
/// would, which the sandbox lacks), runs it, and prints the processor time of that loop (`os.clock`):
/// the figure leaves out the start-up of either program, which is the startup group's business and
/// would weigh on a loop of tens of milliseconds. envscript runs as a user runs it, with the
/// instruction budget on (its count hook is part of the cost) but raised so that 50 runs in one call
/// fit; the same without a budget is printed for information. Each figure is the best of a few runs
/// taken in alternation.
enum LuaHeavyBenchmark {
    static let iterations = 50
    static let repeats = 7
    /// Large enough for 50 runs of any workload here, small enough to keep the count hook installed.
    static let budget = "1000000000000"

    /// A workload: its name in the figures, its file, the globals it needs first, the libraries it
    /// needs beyond the sandbox.
    struct Workload {
        var name: String
        var path: String
        var prelude = ""
        var allowed: [String] = []
    }

    static func run(_ report: BenchReport) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let envscript = environment["ENVSCRIPT_BENCH_BINARY"], let ours = environment["ENVSCRIPT_BENCH_LUA_WORKLOAD"] else {
            throw BenchFailure("the lua-heavy group needs ENVSCRIPT_BENCH_BINARY and ENVSCRIPT_BENCH_LUA_WORKLOAD; run it through scripts/bench")
        }
        let lua = try ChildProgram.installed("lua5.4", package: "lua5.4")
        var workloads = [Workload(name: "lua_heavy", path: ours)]
        if let testes = environment["ENVSCRIPT_BENCH_TESTES"], !testes.isEmpty {
            for file in ["pm.lua", "strings.lua"] where !FileManager.default.fileExists(atPath: "\(testes)/\(file)") {
                throw BenchFailure("ENVSCRIPT_BENCH_TESTES='\(testes)' has no \(file): set it to the testes/ folder of Lua 5.4.4's sources")
            }
            // As all.lua's user-test mode runs them: _port skips the locale tests (os.setlocale);
            // strings.lua formats io.stdin with %p.
            let prelude = "_soft, _port, _nomsg = true, true, true\n"
            workloads.append(Workload(name: "lua_heavy.testes_pm", path: "\(testes)/pm.lua", prelude: prelude))
            workloads.append(Workload(name: "lua_heavy.testes_strings", path: "\(testes)/strings.lua", prelude: prelude, allowed: ["io"]))
        }
        let folder = try benchFolder("lua-heavy")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A workload that fails (a testes file meeting a difference of the sandbox) fails the group, after
        // the others have printed their figures.
        var failures: [String] = []
        for workload in workloads {
            do {
                try measure(workload, envscript: envscript, lua: lua, in: folder, report)
            } catch {
                print("\(workload.name): FAILED, no figures (see the end of the output)")
                failures.append("\(workload.name): \(error)")
            }
        }
        if !failures.isEmpty { throw BenchFailure(failures.joined(separator: "\n")) }
    }

    private static func measure(_ workload: Workload, envscript: String, lua: String, in folder: URL, _ report: BenchReport) throws {
        let driver = "\(workload.name).driver.lua"
        try driverScript(for: workload).write(to: folder.appendingPathComponent(driver))
        let allowed = workload.allowed.flatMap { ["--allow", $0] }
        let stock = ChildProgram(arguments: [lua, driver])
        let sandboxed = ChildProgram(arguments: [envscript, "run", "--no-init", "--instruction-limit", budget] + allowed + [driver])
        let unlimited = ChildProgram(arguments: [envscript, "run", "--no-init", "--instruction-limit", "0"] + allowed + [driver])
        benchProgress("lua-heavy", "\(URL(fileURLWithPath: workload.path).lastPathComponent) \(iterations) times in one process, \(repeats) runs each of envscript run and lua5.4, in alternation")
        let (envscriptTime, stockTime) = try bestOfAlternating(repeats, measured: {
            try loopTime(sandboxed, in: folder, what: "envscript run \(workload.name)")
        }, baseline: {
            try loopTime(stock, in: folder, what: "lua5.4 \(workload.name)")
        })
        let unlimitedTime = try bestOf(repeats) { try loopTime(unlimited, in: folder, what: "envscript run \(workload.name) without a budget") }
        report.figure("\(workload.name).lua54", stockTime / 1e6, "ms (\(iterations) runs, processor time of the loop)")
        report.figure("\(workload.name).envscript_run", envscriptTime / 1e6, "ms (\(iterations) runs, processor time of the loop)")
        report.ratio("\(workload.name).envscript_vs_lua54", envscriptTime, over: stockTime, target: 1.5)
        report.figure("\(workload.name).envscript_run_without_budget_vs_lua54", unlimitedTime / stockTime, "x")
    }

    /// The line the driver ends with: the loop's processor time.
    static let loopMarker = "envscript-bench-loop-seconds: "

    /// Runs a driver and returns the loop's time in nanoseconds, as the driver printed it.
    static func loopTime(_ program: ChildProgram, in folder: URL, what: String) throws -> Double {
        let run = try program.runChecked(in: folder, what: what)
        guard let line = run.output.split(separator: "\n").last(where: { $0.hasPrefix(loopMarker) }),
              let seconds = Double(line.dropFirst(loopMarker.count))
        else { throw BenchFailure("\(what) did not print its loop's time") }
        return seconds * 1e9
    }

    /// The driver: the workload's text in a long string, loaded and run `iterations` times. Built as
    /// bytes: Lua's testes hold Latin-1 text, which must reach Lua unchanged.
    static func driverScript(for workload: Workload) throws -> Data {
        guard let source = FileManager.default.contents(atPath: workload.path) else {
            throw BenchFailure("cannot read the workload \(workload.path)")
        }
        var level = 1
        while source.range(of: Data(("]" + String(repeating: "=", count: level) + "]").utf8)) != nil { level += 1 }
        let equals = String(repeating: "=", count: level)
        let name = URL(fileURLWithPath: workload.path).lastPathComponent
        var driver = Data((workload.prelude + "local source = [\(equals)[\n").utf8)
        driver.append(source)
        driver.append(Data("""
            ]\(equals)]
            local clock, started = os.clock, os.clock()
            for _ = 1, \(iterations) do
              local chunk = assert(load(source, "@\(name)", "t"))
              chunk()
            end
            print("\(loopMarker)" .. string.format("%.6f", clock() - started))

            """.utf8))
        return driver
    }
}
