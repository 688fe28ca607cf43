import AppState
import EnvScript
import Foundation
import LuaBridge

/// Get and set of memory and stored state, from Swift through a held handle and from Lua through the
/// `state` module, as applications use them: after a warm-up, with every read consumed, and reading
/// keys that hold a value. `stored_get_unset` is the read of a key never written (a miss in the
/// preferences, which returns the initial value), kept to compare with earlier figures.
enum StateBenchmark {
    static let operations = 200_000
    static let repeats = 5

    /// A Swift-typed value, for the figures of `Codable` state seen from Lua.
    struct Profile: Codable, Sendable {
        var name: String
        var visits: Int
        var tags: [String]
    }

    static func run(_ report: BenchReport) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = try EnvScriptHost(configuration: HostConfiguration(
            home: folder.appendingPathComponent("home"), lua: LuaOptions(instructionLimit: nil)))
        defer { host.close() }
        let application = host.application
        let memory = try application.state("bench.memory", initial: 0)
        let stored = try application.storedState("bench.stored", initial: 0)
        let unset = try application.storedState("bench.unset", initial: 0)

        report.figure("state.memory_set_swift", try perOperation { memory.value = $0 }, "ns/op")
        report.figure("state.memory_get_swift", try perOperation { _ in blackHole(memory.value) }, "ns/op")
        report.figure("state.stored_set_swift", try perOperation { try stored.setValue($0) }, "ns/op")
        try stored.setValue(42)
        report.figure("state.stored_get_swift", try perOperation { _ in blackHole(stored.value) }, "ns/op")
        report.figure("state.stored_get_unset_swift", try perOperation { _ in blackHole(unset.value) }, "ns/op")

        try host.execute("state.memory('lua.memory', 0) state.stored('lua.stored', 0)")
        for (kind, key) in [("memory", "lua.memory"), ("stored", "lua.stored")] {
            let set = try host.lua.load("local set, n = state.set, ... for i = 1, n do set('\(key)', i) end", chunkName: "=bench")
            let get = try host.lua.load("local get, n = state.get, ... for _ = 1, n do get('\(key)') end", chunkName: "=bench")
            report.figure("state.\(kind)_set_lua", try perOperation(batch: set), "ns/op")
            report.figure("state.\(kind)_get_lua", try perOperation(batch: get), "ns/op")
        }

        // A table from Lua and a Swift struct read from Lua: the conversions between Lua values, script
        // values, preference values and Swift types.
        try host.execute("state.stored('lua.table', {})")
        let setTable = try host.lua.load(
            "local set, n = state.set, ... for i = 1, n do set('lua.table', { name = 'n', visits = i, tags = { 'a', 'b' } }) end",
            chunkName: "=bench")
        let getTable = try host.lua.load("local get, n = state.get, ... for _ = 1, n do get('lua.table') end", chunkName: "=bench")
        report.figure("state.stored_table_set_lua", try perOperation(batch: setTable, operations: 20_000), "ns/op")
        report.figure("state.stored_table_get_lua", try perOperation(batch: getTable, operations: 20_000), "ns/op")
        let profile = try application.storedState("swift.profile", initial: Profile(name: "n", visits: 0, tags: ["a", "b"]))
        report.figure("state.stored_struct_set_swift", try perOperation(operations: 20_000) { visits in
            try profile.setValue(Profile(name: "n", visits: visits, tags: ["a", "b"]))
        }, "ns/op")
        let getProfile = try host.lua.load("local get, n = state.get, ... for _ = 1, n do get('swift.profile') end", chunkName: "=bench")
        report.figure("state.stored_struct_get_lua", try perOperation(batch: getProfile, operations: 20_000), "ns/op")

        try StateWrapperBenchmark.run(report)
    }

    /// The best time per call of `body` over `operations` calls, after a warm-up of as many calls.
    static func perOperation(operations: Int = Self.operations, _ body: (Int) throws -> Void) throws -> Double {
        for index in 0..<operations { try body(index) }
        return try bestOf(repeats) {
            try nanoseconds { for index in 0..<operations { try body(index) } } / Double(operations)
        }
    }

    /// The best time per operation of a Lua loop given the operation count, after a warm-up run.
    static func perOperation(batch: LuaFunctionRef, operations: Int = Self.operations) throws -> Double {
        _ = try batch.call([.integer(operations)])
        return try bestOf(repeats) {
            try nanoseconds { _ = try batch.call([.integer(operations)]) } / Double(operations)
        }
    }
}
