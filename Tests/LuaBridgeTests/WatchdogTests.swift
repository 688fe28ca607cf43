import Dispatch
import Foundation
import LuaBridge
import Testing

/// Time limits and interrupts without a hook in the VM (watchdog.c): nothing traps until a deadline
/// passes or an interrupt comes, then the Lua code stops at its next instruction, also after one long
/// C call, inside coroutines and handlers, and on any thread.
@Suite struct WatchdogTests {
    func unbudgeted(memory: Int? = 256 << 20, debug: Bool = false) throws -> LuaState {
        try LuaState(options: LuaOptions(memoryLimit: memory, instructionLimit: nil, libraries: debug ? [.debug] : []))
    }

    /// Defines the global `started()`; 50 ms after the script calls it, another thread interrupts
    /// the state once. (The function holds the state: the test closes it.)
    func interruptOnceStarted(_ lua: LuaState) {
        let interrupter = lua.interrupter
        let started = DispatchSemaphore(value: 0)
        lua.setGlobal("started", function: LuaFunction("started") { _ in started.signal(); return 0 })
        DispatchQueue.global().async {
            started.wait()
            Thread.sleep(forTimeInterval: 0.05)
            interrupter.interrupt()
        }
    }

    /// Seconds `body` took.
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return (ContinuousClock.now - start).inSeconds
    }

    @Test func underATimeLimitAloneNoHookIsSet() throws {
        let lua = try unbudgeted(debug: true)
        let hook = try lua.withTimeLimit(seconds: 30, reason: "test") {
            try lua.execute("return debug.gethook(), coroutine.wrap(function() return debug.gethook() end)()")
        }
        #expect(hook == [.nil, .nil], "a hook makes the VM trap at every instruction")
        // The budget keeps its hook.
        let budgeted = try LuaState(options: LuaOptions(instructionLimit: 1_000_000, libraries: [.debug]))
        #expect(try budgeted.execute("return debug.gethook()").first != .nil)
    }

    /// Found in review: each call counted one instruction, and the clock was read every thousand, so
    /// these loops outran every limit (the first for minutes, the second for 13-32 s under 3 s).
    @Test func aLoopOfLongCallsStopsWithinOneCallOfTheDeadline() throws {
        let lua = try unbudgeted(memory: nil)
        try lua.execute("""
            big = string.rep('a', 64 * 2^20)
            tables = {} for i = 1, 1e6 do tables[i] = {} end
            """)
        for (loop, call) in [("while true do utf8.len(big) end", "utf8.len(big)"),
                             ("while true do collectgarbage() end", "collectgarbage()")] {
            let once = try seconds { try lua.execute(call) }
            let limit = 0.3
            var error: LuaError?
            let took = seconds {
                do {
                    try lua.withTimeLimit(seconds: limit, reason: "test") { try lua.execute(loop, chunkName: "=loop") }
                } catch let caught as LuaError {
                    error = caught
                } catch {}
            }
            #expect(error?.kind == .timeLimit, "\(loop)")
            #expect(took < limit + 2 * once + 0.5, "\(loop): stopped after \(took) s, one call takes \(once) s")
        }
    }

    @Test func aLoopInACoroutineOrAHandlerIsStopped() throws {
        let lua = try unbudgeted()
        let loops = [
            "coroutine.wrap(function() while true do end end)()",
            "coroutine.resume(coroutine.create(function() coroutine.wrap(function() while true do end end)() end))",
            // Back in the resumer after the coroutine yields.
            "local co = coroutine.wrap(function() coroutine.yield() end) co() while true do end",
            "local co = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) coroutine.yield() end) coroutine.resume(co) coroutine.close(co)",
            "local co = coroutine.wrap(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) error('x') end) pcall(co) error('escaped')",
            "setmetatable({}, {__gc = function() while true do end end}) collectgarbage()",
            "pcall(string.gsub, 'aaa', 'a', function() while true do end end) error('escaped')",
            "table.sort({3, 2, 1, 4, 5}, function(a, b) while true do end end)",
        ]
        for loop in loops {
            let error = try #require(throws: LuaError.self) {
                try lua.withTimeLimit(seconds: 0.1, reason: "test") { try lua.execute(loop) }
            }
            #expect(error.kind == .timeLimit, "\(loop): \(error.message)")
        }
        #expect(try lua.execute("return 1 + 1") == [2])
    }

    @Test func theMemoryCapStopsAScriptThatCatchesItsError() throws {
        let lua = try unbudgeted(memory: 16 << 20)
        var error: LuaError?
        let took = seconds {
            do {
                try lua.execute("while true do pcall(function() local t = {} for i = 1, 1e9 do t[i] = i end end) end")
            } catch let caught as LuaError {
                error = caught
            } catch {}
        }
        #expect(error?.kind == .memoryLimit)
        #expect(took < 5)
    }

    @Test func anInterruptStopsCodeWithNoLimitAtAll() throws {
        let lua = try unbudgeted()
        defer { try? lua.close() }
        interruptOnceStarted(lua)
        let error = try #require(throws: LuaError.self) {
            try lua.execute("started() local co = coroutine.wrap(function() while true do end end) co()")
        }
        #expect(error.message.hasSuffix("interrupted"))
    }

    /// Found in review: a coroutine took the interrupt (or the memory cap) as an error that ended it,
    /// and its resumer, given `false` and the message, looped on with no hook and nothing due.
    @Test func aLimitMetInsideACoroutineStopsItsResumerToo() throws {
        let lua = try unbudgeted(memory: 16 << 20)
        defer { try? lua.close() }
        interruptOnceStarted(lua)
        let interrupted = try #require(throws: LuaError.self) {
            try lua.execute("started() coroutine.resume(coroutine.create(function() while true do end end)) while true do end")
        }
        #expect(interrupted.message.hasSuffix("interrupted"))
        let memory = try #require(throws: LuaError.self) {
            try lua.execute("coroutine.wrap(function() pcall(coroutine.wrap(function() local t = {} for i = 1, 1e9 do t[i] = i end end)) end)() while true do end")
        }
        #expect(memory.kind == .memoryLimit)
    }

    /// Found by Lua's own testes (coroutine.lua, db.lua): resuming a coroutine took off the hook a
    /// script had set on it with the debug library.
    @Test func aScriptsOwnHookOnACoroutineIsKept() throws {
        let lua = try LuaState(options: LuaOptions(instructionLimit: nil, libraries: [.debug]))
        let answer = try lua.withTimeLimit(seconds: 30, reason: "test") {
            try lua.execute("""
                local co = coroutine.create(function() local x = 1 coroutine.yield() return x end)
                local lines = 0
                local function hook() lines = lines + 1 end
                debug.sethook(co, hook, "l")
                coroutine.resume(co)
                coroutine.resume(co)
                return debug.gethook(co) == hook, lines > 0
                """)
        }
        #expect(answer == [true, true])
    }

    /// Dispatch's worker threads start with most signals blocked; states on many threads at once each
    /// stop at their own deadline.
    @Test func statesOnManyThreadsEachStopAtTheirOwnDeadline() throws {
        let group = DispatchGroup()
        let outcomes = Outcomes()
        for index in 0..<6 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                do {
                    let lua = try LuaState(options: LuaOptions(instructionLimit: nil))
                    let limit = 0.1 + Double(index) * 0.05
                    let start = ContinuousClock.now
                    do {
                        try lua.withTimeLimit(seconds: limit, reason: "state \(index)") { try lua.execute("while true do end") }
                        outcomes.add("state \(index) was not stopped")
                    } catch let error as LuaError {
                        let took = (ContinuousClock.now - start).inSeconds
                        if !error.message.hasSuffix("state \(index)") { outcomes.add("state \(index): \(error.message)") }
                        if took < limit || took > limit + 1 { outcomes.add("state \(index) stopped after \(took) s (limit \(limit) s)") }
                    }
                    // A later call on the same state runs at full speed, with no limit.
                    let sum = try lua.execute("local n = 0 for i = 1, 1e6 do n = n + 1 end return n")
                    if sum != [1_000_000] { outcomes.add("state \(index) then answered \(sum)") }
                } catch {
                    outcomes.add("state \(index): \(error)")
                }
            }
        }
        group.wait()
        #expect(outcomes.problems.isEmpty, "\(outcomes.problems)")
    }

    /// A host function that sleeps is not signalled into failing: the limit is raised as it returns.
    @Test func aSlowHostFunctionFinishesAndTheLimitStopsTheCodeAfterIt() throws {
        let lua = try unbudgeted()
        defer { try? lua.close() }
        var finished = false
        lua.setGlobal("slow", function: LuaFunction("slow") { _ in
            Thread.sleep(forTimeInterval: 0.3)
            finished = true
            return 0
        })
        let error = try #require(throws: LuaError.self) {
            try lua.withTimeLimit(seconds: 0.05, reason: "test") { try lua.execute("slow() while true do end") }
        }
        #expect(error.kind == .timeLimit)
        #expect(finished)
    }
}

/// Problems found on other threads.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [String] = []
    func add(_ problem: String) { lock.withLock { found.append(problem) } }
    var problems: [String] { lock.withLock { found } }
}
