import Foundation
import Tweaks

/// Targeting: a flagd file's rules evaluated in a context, from Swift through a `TweakManager` — a
/// `fractional` split and a rule on two attributes — side by side with `openfeature-flagd-core`,
/// flagd's reference evaluator in Python, evaluating the same file in the same run (target: 20 times
/// faster or more).
enum TargetingBenchmark {
    static let evaluations = 200_000
    static let baselineEvaluations = 20_000
    static let repeats = 5

    static let flags = """
        {"flags": {
          "bench.fractional": {"state": "ENABLED", "variants": {"a": "A", "b": "B", "c": "C"}, "defaultVariant": "a",
            "targeting": {"fractional": [["a", 50], ["b", 30], ["c", 20]]}},
          "bench.two_attributes": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
            "targeting": {"if": [{"and": [{"==": [{"var": "country"}, "DE"]}, {"==": [{"var": "plan"}, "premium"]}]}, "on", null]}}
        }}
        """

    static func run(_ report: BenchReport) throws {
        let folder = try benchFolder("targeting")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flags.json")
        try Data(flags.utf8).write(to: file)
        let manager = TweakManager(
            providers: [try FlagdTweakProvider(fileURL: file, name: "rules", watchInterval: nil)], cacheEnabled: true)
        // The same contexts as the baseline: eight users taking turns for the split, one German premium user.
        let users = (0..<8).map { TweakContext(targetingKey: "user-\($0)") }
        let premium = TweakContext(targetingKey: "user-1", attributes: ["country": "DE", "plan": "premium"])
        try BridgeBenchmark.check(manager.resolve("bench", "two_attributes", default: false, context: premium).value, "the two-attribute rule")

        let fractional = try bestOf(repeats) {
            var seen = 0
            let elapsed = try nanoseconds {
                for index in 0..<evaluations {
                    seen &+= try manager.value("bench", "fractional", as: String.self, context: users[index & 7]).utf8.count
                }
            }
            try BridgeBenchmark.check(seen == evaluations, "fractional evaluations")
            return elapsed / Double(evaluations)
        }
        let twoAttributes = try bestOf(repeats) {
            var on = 0
            let elapsed = try nanoseconds {
                for _ in 0..<evaluations where try manager.value("bench", "two_attributes", as: Bool.self, context: premium) { on += 1 }
            }
            try BridgeBenchmark.check(on == evaluations, "two-attribute evaluations")
            return elapsed / Double(evaluations)
        }
        let baseline = try flagdCore(file)
        report.figure("tweaks.targeting_fractional_swift", fractional, "ns/evaluation")
        report.figure("tweaks.targeting_two_attributes_swift", twoAttributes, "ns/evaluation")
        report.figure("tweaks.targeting_fractional_flagd_core", baseline.fractional, "ns/evaluation (openfeature-flagd-core, Python)")
        report.figure("tweaks.targeting_two_attributes_flagd_core", baseline.twoAttributes, "ns/evaluation (openfeature-flagd-core, Python)")
        // As "at least 20 times faster": ours over theirs at most 1/20.
        report.ratio("tweaks.targeting_fractional_vs_flagd_core", fractional, over: baseline.fractional, target: 1.0 / 20)
        report.ratio("tweaks.targeting_two_attributes_vs_flagd_core", twoAttributes, over: baseline.twoAttributes, target: 1.0 / 20)
    }

    /// ns per evaluation of each rule by `openfeature-flagd-core`, through scripts/bench-flagd's script
    /// run with the python of `ENVSCRIPT_BENCH_FLAGD_PYTHON` (scripts/bench sets it).
    private static func flagdCore(_ file: URL) throws -> (fractional: Double, twoAttributes: Double) {
        let environment = ProcessInfo.processInfo.environment
        guard let python = environment["ENVSCRIPT_BENCH_FLAGD_PYTHON"], let script = environment["ENVSCRIPT_BENCH_FLAGD_SCRIPT"] else {
            throw BenchFailure("the targeting figures need ENVSCRIPT_BENCH_FLAGD_PYTHON and ENVSCRIPT_BENCH_FLAGD_SCRIPT; run them through scripts/bench")
        }
        benchProgress("tweaks", "openfeature-flagd-core evaluating the same rules \(baselineEvaluations) times, \(repeats) rounds")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, file.path, String(baselineEvaluations)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchFailure("openfeature-flagd-core's benchmark exited \(process.terminationStatus)") }
        var figures: [String: Double] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
        }
        guard let fractional = figures["fractional"], let twoAttributes = figures["two_attributes"] else {
            throw BenchFailure("openfeature-flagd-core's benchmark printed no figures: \(String(decoding: data, as: UTF8.self))")
        }
        return (fractional, twoAttributes)
    }
}
