import EnvScript
import Foundation
import LuaBridge
import Tweaks

/// Flag lookups: cached and uncached from Swift, and from Lua through the `tweak` module; then targeting
/// (``TargetingBenchmark``).
enum TweakBenchmark {
    static let lookups = 1_000_000
    static let repeats = 5

    static func run(_ report: BenchReport) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = try EnvScriptHost(configuration: HostConfiguration(home: folder, lua: LuaOptions(instructionLimit: nil)))
        defer { host.close() }
        // Four providers; the flag lives in the lowest, so an uncached lookup asks all four.
        try host.execute("""
            tweak.stack{
              tweak.overrides(),
              tweak.ephemeral({ other = { x = 1 } }, 'first'),
              tweak.ephemeral({ other = { y = 2 } }, 'second'),
              tweak.ephemeral({ checkout = { limit = 7 } }, 'bottom'),
            }
            """)
        let tweaks = host.tweaks

        /// ns per typed lookup from Swift, with the cache on or off.
        func swiftLookups(cached: Bool) throws -> Double {
            tweaks.cacheEnabled = cached
            return try bestOf(repeats) {
                var sum = 0
                let elapsed = try nanoseconds {
                    for _ in 0..<lookups { sum &+= try tweaks.value("checkout", "limit", as: Int.self) }
                }
                try BridgeBenchmark.check(sum == 7 * lookups, cached ? "cached lookups" : "uncached lookups")
                return elapsed / Double(lookups)
            }
        }
        let cached = try swiftLookups(cached: true)
        let uncached = try swiftLookups(cached: false)
        tweaks.cacheEnabled = true
        let loop = try host.lua.load("""
            local value, n = tweak.value, ...
            local sum = 0
            for _ = 1, n do sum = sum + value('checkout', 'limit', 0) end
            return sum
            """, chunkName: "=bench")
        let fromLua = try bestOf(repeats) {
            var sum = 0
            let elapsed = try nanoseconds { sum = try loop.call(lookups, returning: Int.self) }
            try BridgeBenchmark.check(sum == 7 * lookups, "lookups from Lua")
            return elapsed / Double(lookups)
        }
        report.figure("tweaks.lookup_cached_swift", cached, "ns/lookup")
        report.ratio("tweaks.lookup_cached_swift_vs_50ns", cached, over: 50, target: 1)
        report.figure("tweaks.lookup_uncached_4_providers_swift", uncached, "ns/lookup")
        report.figure("tweaks.lookup_cached_lua", fromLua, "ns/lookup")
        report.ratio("tweaks.lookup_cached_lua_vs_150ns", fromLua, over: 150, target: 1)
        try TargetingBenchmark.run(report)
    }
}
