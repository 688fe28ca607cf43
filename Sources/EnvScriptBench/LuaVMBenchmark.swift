import Foundation

/// VM-bound Lua (scripts/bench-lua/vm-bound.lua: calls, integer arithmetic, table writes) run 50 times in
/// one process by stock `lua5.4` and by `envscript run`, in the same run: under `run`'s default limits
/// (each stage's time limit, the memory cap), with no limit at all, and with each limit on its own, so
/// that what each costs the VM shows (any hook makes Lua take its trap path at every instruction). The
/// figure is the processor time of the driver's loop, best of a few runs in alternation (the driver of
/// the lua-heavy group).
enum LuaVMBenchmark {
    static let repeats = 5

    /// A way of running `envscript run`: its name in the figures and its options.
    private static let settings: [(name: String, options: [String])] = [
        ("default_limits", []),
        ("no_limits", ["--test-timeout", "0", "--memory-limit", "0"]),
        ("instruction_limit_only", ["--test-timeout", "0", "--memory-limit", "0", "--instruction-limit", LuaHeavyBenchmark.budget]),
        ("timeout_only", ["--test-timeout", "0", "--memory-limit", "0", "--timeout", "3600"]),
        ("test_timeout_only", ["--memory-limit", "0", "--test-timeout", "3600"]),
        ("memory_limit_only", ["--test-timeout", "0", "--memory-limit", "256"]),
    ]

    static func run(_ report: BenchReport) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let envscript = environment["ENVSCRIPT_BENCH_BINARY"], let workload = environment["ENVSCRIPT_BENCH_LUA_VM_WORKLOAD"] else {
            throw BenchFailure("the lua-vm group needs ENVSCRIPT_BENCH_BINARY and ENVSCRIPT_BENCH_LUA_VM_WORKLOAD; run it through scripts/bench")
        }
        let lua = try ChildProgram.installed("lua5.4", package: "lua5.4")
        let folder = try benchFolder("lua-vm")
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = "vm-bound.driver.lua"
        try LuaHeavyBenchmark.driverScript(for: .init(name: "lua_vm", path: workload))
            .write(to: folder.appendingPathComponent(driver))
        let stock = ChildProgram(arguments: [lua, driver])
        for setting in settings {
            let ours = ChildProgram(arguments: [envscript, "run", "--no-init"] + setting.options + [driver])
            benchProgress("lua-vm", "vm-bound.lua \(LuaHeavyBenchmark.iterations) times in one process, envscript run (\(setting.name)) against lua5.4, \(repeats) runs each in alternation")
            let (envscriptTime, stockTime) = try bestOfAlternating(repeats, measured: {
                try LuaHeavyBenchmark.loopTime(ours, in: folder, what: "envscript run (\(setting.name))")
            }, baseline: {
                try LuaHeavyBenchmark.loopTime(stock, in: folder, what: "lua5.4")
            })
            if setting.name == settings[0].name {
                report.figure("lua_vm.lua54", stockTime / 1e6, "ms (\(LuaHeavyBenchmark.iterations) runs, processor time of the loop)")
                report.ratio("lua_vm.\(setting.name)_vs_lua54", envscriptTime, over: stockTime, target: 1.05)
            } else {
                report.figure("lua_vm.\(setting.name)_vs_lua54", envscriptTime / stockTime, "x")
            }
        }
    }
}
