import CLuaSupport

extension LuaState {
    /// Runs `body` with a wall-clock limit on the Lua code it runs: once `seconds` have passed, the
    /// running Lua code stops with a ``LuaError/Kind/timeLimit`` error that its own `pcall` cannot
    /// catch, and no host function runs until control is back in Swift.
    ///
    /// Limits nest: inside another limit, the earlier deadline wins (with its own reason). Swift code
    /// that Lua called is not interrupted, but the deadline is checked again as it returns into Lua.
    ///
    /// The limit costs the Lua code nothing until it passes: a watchdog thread waits for the deadline,
    /// then has the thread running Lua (even inside a coroutine, a `__close` or `__gc` handler, or one
    /// long C function such as `utf8.len` over a large string) stop at its next instruction. It does so
    /// with `SIGURG`, which each thread that runs Lua code unblocks; a handler of the host's own for
    /// `SIGURG` still gets the signals not sent by the watchdog.
    ///
    /// - Parameters:
    ///   - seconds: how long the Lua code may run, from now; at least a nanosecond.
    ///   - reason: what the limit is, in the user's words; the error reads
    ///     `time limit exceeded: <reason>`.
    ///   - body: the work that runs Lua code under the limit.
    public func withTimeLimit<Result>(seconds: Double, reason: String, _ body: () throws -> Result) rethrows -> Result {
        guard core.isOpen else { return try body() }
        let runtime = core.runtime
        let previousDeadline = runtime.pointee.deadline_ns
        let previousMessage = withUnsafeBytes(of: runtime.pointee.time_limit_message) { Array($0) }
        let nanoseconds = Int64(min(max(seconds, 1e-9) * 1e9, Double(Int64.max / 2)))
        let deadline = esl_now_ns() + nanoseconds
        if previousDeadline == 0 || deadline < previousDeadline {
            esl_set_deadline(core.mainThread, deadline, "time limit exceeded: \(reason)")
        }
        defer {
            if core.isOpen {
                previousMessage.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { esl_set_deadline(core.mainThread, previousDeadline, $0.baseAddress) }
                }
                // The caller goes on (its pcall may catch the error) unless its own limit has passed too.
                esl_clear_passed_time_limit(core.mainThread)
            }
        }
        return try body()
    }
}
