import LuaBenchBaseline
import LuaBridge

/// The bridge's hot paths against the same work written in C on the Lua API.
enum BridgeBenchmark {
    static let calls = 5_000_000
    static let repeats = 9

    /// Lua calling `add(a, b)`: the loop is the same chunk for the Swift function and the C one.
    static let loop = """
        local add, n = add, ...
        local sum = 0
        for i = 1, n do sum = add(sum, i) end
        return sum
        """

    /// The Lua function Swift (or C) calls through a kept ref.
    static let function = "return function(a, b) return a + b end"

    static func run(_ report: BenchReport) throws {
        let expectedLoop = calls * (calls + 1) / 2

        /// ns per call of the Lua loop calling the Swift `add`, in a state with `options`.
        func swiftAddLoop(_ options: LuaOptions) throws -> Double {
            let lua = try LuaState(options: options)
            lua.setGlobal("add", function: LuaFunction("add") { (a: Int, b: Int) -> Int in a &+ b })
            let chunk = try lua.load(loop, chunkName: "=bench")
            var result = 0
            let elapsed = try nanoseconds { result = try chunk.call(calls, returning: Int.self) }
            try check(result == expectedLoop, "Swift add loop")
            return elapsed / Double(calls)
        }
        let (swiftAdd, cAdd) = try bestOfAlternating(repeats, measured: {
            try swiftAddLoop(LuaOptions(instructionLimit: nil))
        }, baseline: {
            var result: Int64 = 0
            let elapsed = lbb_lua_calls_c_add(loop, Int64(calls), &result)
            try check(elapsed >= 0 && result == expectedLoop, "C add loop")
            return elapsed / Double(calls)
        })
        // For information: the same loop under the default instruction budget (the count hook makes
        // the VM check it at every instruction).
        let budgetedAdd = try bestOf(repeats) { try swiftAddLoop(LuaOptions()) }
        report.figure("bridge.lua_to_c_add", cAdd, "ns/call")
        report.figure("bridge.lua_to_swift_add", swiftAdd, "ns/call")
        report.ratio("bridge.lua_to_swift_add_vs_c", swiftAdd, over: cAdd, target: 1.3)
        report.figure("bridge.lua_to_swift_add_with_default_budget", budgetedAdd, "ns/call")

        let (swiftCall, cCall) = try bestOfAlternating(repeats, measured: {
            let lua = try LuaState(options: LuaOptions(instructionLimit: nil))
            guard case .function(let add) = try lua.execute(function).first else { throw BenchFailure("no Lua function") }
            var sum = 0
            let elapsed = try nanoseconds {
                for _ in 0..<calls { sum = try add.call(sum, 1, returning: Int.self) }
            }
            try check(sum == calls, "Swift calling Lua")
            return elapsed / Double(calls)
        }, baseline: {
            var result: Int64 = 0
            let elapsed = lbb_c_calls_lua_function(function, Int64(calls), &result)
            try check(elapsed >= 0 && result == calls, "C calling Lua")
            return elapsed / Double(calls)
        })
        report.figure("bridge.c_to_lua_ref", cCall, "ns/call")
        report.figure("bridge.swift_to_lua_ref", swiftCall, "ns/call")
        report.ratio("bridge.swift_to_lua_ref_vs_c", swiftCall, over: cCall, target: 1.2)
    }

    static func check(_ condition: Bool, _ what: String) throws {
        if !condition { throw BenchFailure("\(what) gave a wrong result") }
    }
}

/// A benchmark that could not run or computed a wrong result.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
