import AppState
import EnvScript
import Foundation

extension Application {
    fileprivate var benchMemory: State<Int> { state(initial: 0, id: "bench.wrapper.memory") }
    fileprivate var benchStored: StoredState<Int> { storedState(initial: 0, id: "bench.wrapper.stored") }
}

/// State read and written through the property wrappers (`@AppState`, `@StoredState`) of the current
/// application, against the same state through a held handle, measured in alternation. Target: the
/// wrappers cost at most 10% more.
enum StateWrapperBenchmark {
    static let operations = 200_000
    static let repeats = 7

    private struct Model {
        @AppState(\.benchMemory) var memory
        @StoredState(\.benchStored) var stored
    }

    static func run(_ report: BenchReport) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-wrapper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The host makes its application the current one, as an app's host does.
        let host = try EnvScriptHost(configuration: HostConfiguration(home: folder.appendingPathComponent("home")))
        defer { host.close() }
        let model = Model()
        let memory = host.application.benchMemory
        let stored = host.application.benchStored
        stored.value = 42

        compare(report, "memory_get", wrapper: { _ in blackHole(model.memory) }, handle: { _ in blackHole(memory.value) })
        compare(report, "memory_set", wrapper: { model.memory = $0 }, handle: { memory.value = $0 })
        compare(report, "stored_get", wrapper: { _ in blackHole(model.stored) }, handle: { _ in blackHole(stored.value) })
        compare(report, "stored_set", wrapper: { model.stored = $0 }, handle: { stored.value = $0 })
    }

    /// Prints both figures and their ratio; each timing is the best per operation over `repeats` runs.
    private static func compare(
        _ report: BenchReport, _ name: String, wrapper: (Int) -> Void, handle: (Int) -> Void
    ) {
        for index in 0..<operations {
            wrapper(index)
            handle(index)
        }
        let best = bestOfAlternating(
            repeats,
            measured: { nanoseconds { for index in 0..<operations { wrapper(index) } } / Double(operations) },
            baseline: { nanoseconds { for index in 0..<operations { handle(index) } } / Double(operations) })
        report.figure("state.\(name)_wrapper", best.measured, "ns/op")
        report.figure("state.\(name)_held_handle", best.baseline, "ns/op")
        report.ratio("state.\(name)_wrapper_vs_handle", best.measured, over: best.baseline, target: 1.1)
    }
}
