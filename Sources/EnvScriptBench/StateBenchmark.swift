import AppState
import EnvScript
import Foundation
import LuaBridge

/// Get and set of memory and stored state, from Swift and from Lua through the `state` module.
enum StateBenchmark {
    static let operations = 200_000
    static let repeats = 5

    static func run(_ report: BenchReport) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = try EnvScriptHost(configuration: HostConfiguration(
            home: folder.appendingPathComponent("home"), lua: LuaOptions(instructionLimit: nil)))
        defer { host.close() }
        let application = host.application
        let memory = try application.state("bench.memory", initial: 0)
        let stored = try application.storedState("bench.stored", initial: 0)

        report.figure("state.memory_get_swift", try perOperation { _ in _ = memory.value }, "ns/op")
        report.figure("state.memory_set_swift", try perOperation { memory.value = $0 }, "ns/op")
        report.figure("state.stored_get_swift", try perOperation { _ in _ = try stored.value }, "ns/op")
        report.figure("state.stored_set_swift", try perOperation { try stored.setValue($0) }, "ns/op")

        try host.execute("state.memory('lua.memory', 0) state.stored('lua.stored', 0)")
        for (kind, key) in [("memory", "lua.memory"), ("stored", "lua.stored")] {
            let get = try host.lua.load("local get, n = state.get, ... for _ = 1, n do get('\(key)') end", chunkName: "=bench")
            let set = try host.lua.load("local set, n = state.set, ... for i = 1, n do set('\(key)', i) end", chunkName: "=bench")
            report.figure("state.\(kind)_get_lua", try perOperation(batch: get), "ns/op")
            report.figure("state.\(kind)_set_lua", try perOperation(batch: set), "ns/op")
        }
    }

    /// The best time per call of `body` over `operations` calls.
    static func perOperation(_ body: (Int) throws -> Void) throws -> Double {
        try bestOf(repeats) {
            try nanoseconds { for index in 0..<operations { try body(index) } } / Double(operations)
        }
    }

    /// The best time per operation of a Lua loop given the operation count.
    static func perOperation(batch: LuaFunctionRef) throws -> Double {
        try bestOf(repeats) {
            try nanoseconds { try batch.call([.integer(operations)]) } / Double(operations)
        }
    }
}
