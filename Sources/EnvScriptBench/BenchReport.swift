import Foundation
import Locking

/// Prints benchmark figures as `name: value unit` lines, and ratios against a baseline.
struct BenchReport {
    /// Prints one figure.
    func figure(_ name: String, _ value: Double, _ unit: String) {
        print("\(name): \(format(value)) \(unit)")
    }

    /// Prints the ratio of `measured` to `baseline`, with the target it must meet.
    func ratio(_ name: String, _ measured: Double, over baseline: Double, target: Double) {
        let ratio = measured / baseline
        let verdict = ratio <= target ? "meets" : "MISSES"
        print("\(name): \(format(ratio, digits: 2)) x (target <= \(format(target, digits: 2)) x, \(verdict))")
    }

    /// Prints a figure with the most it may be.
    func atMost(_ name: String, _ value: Double, _ unit: String, target: Double) {
        let verdict = value <= target ? "meets" : "MISSES"
        print("\(name): \(format(value)) \(unit) (target <= \(format(target)) \(unit), \(verdict))")
    }

    /// Prints a ratio where bigger is better (a speed-up), with its target.
    func speedup(_ name: String, _ measured: Double, target: Double) {
        let verdict = measured >= target ? "meets" : "MISSES"
        print("\(name): \(format(measured, digits: 2)) x (target >= \(format(target, digits: 1)) x, \(verdict))")
    }

    private func format(_ value: Double, digits: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return digits == 0 ? String(Int(rounded)) : String(rounded)
    }
}

/// The best (smallest) of several timings: the least disturbed by the rest of the machine.
func bestOf(_ repeats: Int, _ measure: () throws -> Double) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<repeats { best = min(best, try measure()) }
    return best
}

/// The best timings of a measurement and its baseline, taken in alternation so that both see the
/// same conditions of the machine.
func bestOfAlternating(
    _ repeats: Int, measured: () throws -> Double, baseline: () throws -> Double
) rethrows -> (measured: Double, baseline: Double) {
    var best = (measured: Double.infinity, baseline: Double.infinity)
    for _ in 0..<repeats {
        best.baseline = min(best.baseline, try baseline())
        best.measured = min(best.measured, try measured())
    }
    return best
}

/// Nanoseconds taken by `work`.
func nanoseconds(_ work: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let elapsed = try clock.measure(work)
    return elapsed.inSeconds * 1e9
}

/// Tells the person waiting what a long benchmark group is doing, on standard error.
func benchProgress(_ group: String, _ text: String) {
    FileHandle.standardError.write(Data("\(group): \(text)...\n".utf8))
}
