import CLuaSupport

extension LuaState {
    /// Bytes the host keeps now for the script: values the script handed over that a host function
    /// kept (a flag's override, a state value), as told by ``keep(_:insteadOf:by:)``.
    ///
    /// They count with ``memoryInUse`` against ``memoryLimit``: the Lua heap may grow only to what they
    /// leave, so a script cannot park more data in the host than its limit allows.
    package var keptMemory: Int { core.isOpen ? Int(core.runtime.pointee.host_kept_bytes) : 0 }

    /// Tells that the host now keeps `bytes` for the script where it kept `previous` (0 for a new
    /// value; `bytes` 0 when it lets the value go). Called by a host function before it keeps the value.
    ///
    /// - Throws: ``LuaScriptError`` naming `function` when the Lua heap and what the host keeps would
    ///   pass ``memoryLimit``; nothing is charged then. It is an ordinary error (a script's `pcall`
    ///   catches it and goes on): the value was refused, so the limit holds.
    package func keep(_ bytes: Int, insteadOf previous: Int, by function: String) throws {
        guard core.isOpen else { return }
        let runtime = core.runtime
        let others = max(0, Int(runtime.pointee.host_kept_bytes) - previous)
        let limit = Int(runtime.pointee.memory_limit)
        let heap = Int(runtime.pointee.bytes_in_use)
        if bytes > previous, limit > 0, heap + others + bytes > limit {
            throw LuaScriptError(
                "\(function) would keep \(Self.roughly(bytes)) for the script in the host, beyond its memory limit of "
                    + "\(Self.roughly(limit)) with \(Self.roughly(heap)) in Lua and \(Self.roughly(others)) kept already")
        }
        runtime.pointee.host_kept_bytes = others + bytes
    }

    /// `bytes` in the unit a reader takes in at once: "512 bytes", "4.0 MiB".
    static func roughly(_ bytes: Int) -> String {
        if bytes < 1 << 10 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return "\(bytes >> 10) KiB" }
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
