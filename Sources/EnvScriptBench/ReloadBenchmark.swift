import EnvScript
import Foundation
import Locking
import LuaBridge

/// Live reload (`EnvScriptHost.reloadStartupScripts()`) of the examples' start-up script: how long one
/// takes, how long a lookup on another thread waits while reloads run — a plain flag, and a value the
/// script's Lua decryptor opens — against the same lookups with no reload, and the process's resident
/// memory after 100 reloads against before them.
enum ReloadBenchmark {
    static func run(_ report: BenchReport) throws {
        guard let examples = ProcessInfo.processInfo.environment["ENVSCRIPT_BENCH_EXAMPLES"] else {
            throw BenchFailure("ENVSCRIPT_BENCH_EXAMPLES must name the examples folder (scripts/bench sets it)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-reload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HostConfiguration(
            home: folder.appendingPathComponent("home"), lua: LuaOptions(scriptRoots: [examples]), attachesToHome: false)
        configuration.scriptPathBase = URL(fileURLWithPath: examples)
        let host = try EnvScriptHost(configuration: configuration)
        defer { host.close() }
        try host.runStartupScript(atPath: examples + "/envscript.lua")

        // One reload: the median and the best of 50, after 10 to warm up.
        for _ in 0..<10 { try host.reloadStartupScripts() }
        var times: [Double] = []
        for _ in 0..<50 { times.append(try nanoseconds { try host.reloadStartupScripts() } / 1e6) }
        times.sort()
        report.atMost("reload.examples_median", times[times.count / 2], "ms", target: 20)
        report.figure("reload.examples_best", times[0], "ms")

        // The longest lookup, with reloads running on another thread and without.
        for (name, feature, variable) in [("plain", "checkout", "button_color"), ("lua_decryptor", "api", "token")] {
            let quiet = try longestLookup(host, feature: feature, variable: variable, reloading: false)
            let reloading = try longestLookup(host, feature: feature, variable: variable, reloading: true)
            report.figure("reload.lookup_\(name)_longest_without_reloads", quiet * 1000, "us")
            report.atMost("reload.lookup_\(name)_longest_during_reloads", reloading * 1000, "us", target: 1000)
        }

        // Resident memory: 100 reloads after 20.
        for _ in 0..<20 { try host.reloadStartupScripts() }
        let before = residentBytes()
        for _ in 0..<100 { try host.reloadStartupScripts() }
        let after = residentBytes()
        report.ratio("reload.resident_after_100_over_before", Double(after), over: Double(before), target: 1.1)
    }

    /// The longest of the lookups of `feature.variable` one thread makes for 40 reloads' time (or as
    /// long, with `reloading` false), in milliseconds.
    private static func longestLookup(_ host: EnvScriptHost, feature: String, variable: String, reloading: Bool) throws -> Double {
        let done = Locked(false)
        let longest = Locked(0.0)
        let failure = Locked<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let clock = ContinuousClock()
            while !done.withLock({ $0 }) {
                let started = clock.now
                do {
                    _ = try host.tweaks.lookup(feature: feature, variable: variable)
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
                let took = started.duration(to: clock.now)
                let milliseconds = Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15
                longest.withLock { $0 = max($0, milliseconds) }
            }
            finished.signal()
        }
        // Past the lookups' own warm-up.
        Thread.sleep(forTimeInterval: 0.05)
        longest.withLock { $0 = 0 }
        if reloading {
            for _ in 0..<40 { try host.reloadStartupScripts() }
        } else {
            Thread.sleep(forTimeInterval: 0.2)
        }
        done.withLock { $0 = true }
        finished.wait()
        if let failure = failure.withLock({ $0 }) { throw BenchFailure("a lookup of \(feature).\(variable) failed: \(failure)") }
        return longest.withLock { $0 }
    }

    /// The resident set of this process, in bytes.
    private static func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
