import CLua
import CLuaSupport

/// Conversions between ``LuaValue`` and a thread's stack. Only raw, non-raising API calls are used here.
extension LuaStateCore {
    /// Tables nested deeper than this are refused.
    static let maximumTableDepth = 100

    /// Reads the value at `index` of `thread`. The stack is as it was on every exit, a failed read's
    /// included (lauxlib's habit: save the top, restore it).
    ///
    /// Each table is read once: a subtable met again is the value already read (``LuaTable`` is
    /// copied on write, so sharing it costs nothing), and a table that contains itself is refused. The
    /// value read may still stand for far more than the state holds (`t = {t, t}` twenty times over is a
    /// few kilobytes in Lua and millions of values written out as JSON), so the values it stands for,
    /// counted with repeats, are bounded by ``TableReading/limit``.
    func read(at index: Int32, from thread: OpaquePointer) throws(LuaError) -> LuaValue {
        let top = lua_gettop(thread)
        var reading = TableReading(limit: expandedValueLimit)
        do {
            return try read(at: lua_absindex(thread, index), from: thread, depth: 0, reading: &reading)
        } catch {
            lua_settop(thread, top)
            throw error
        }
    }

    /// How many values (counted with repeats) one value read from Lua may stand for: a sixteenth of
    /// the memory the state may still take under its cap, the least a value takes in Lua, or
    /// ``TableReading/uncappedLimit`` with no cap.
    private var expandedValueLimit: Int {
        let runtime = self.runtime.pointee
        guard runtime.memory_limit > 0 else { return TableReading.uncappedLimit }
        let used = runtime.bytes_in_use + runtime.host_kept_bytes
        let left = runtime.memory_limit > used ? runtime.memory_limit - used : 0
        return max(Int(left / 16), 1024)
    }

    private func read(
        at index: Int32, from thread: OpaquePointer, depth: Int, reading: inout TableReading
    ) throws(LuaError) -> LuaValue {
        try reading.count(1)
        reading.lastHeight = 0
        switch lua_type(thread, index) {
        case LUA_TNIL, LUA_TNONE:
            return .nil
        case LUA_TBOOLEAN:
            return .boolean(lua_toboolean(thread, index) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(thread, index) != 0 { return .integer(Int(lua_tointegerx(thread, index, nil))) }
            return .number(lua_tonumberx(thread, index, nil))
        case LUA_TSTRING:
            // Inside a table a string may repeat: each copy costs its bytes, a value per 16 of them
            // (an 8 MiB string a hundred thousand times over is 10 MB in Lua and 800 GB copied out).
            if depth > 0 { try reading.count(Int(lua_rawlen(thread, index)) / 16) }
            return Self.readString(at: index, from: thread)
        case LUA_TTABLE:
            return .table(try readTable(at: index, from: thread, depth: depth, reading: &reading))
        case LUA_TFUNCTION:
            lua_pushvalue(thread, index)
            return .function(LuaFunctionRef(core: self, poppingFrom: thread))
        case LUA_TUSERDATA:
            if let object = esl_to_swift_object(thread, index) {
                let typeName = lua_getmetatable(thread, index) != 0 ? Self.metatableName(thread) : "userdata"
                return .object(LuaObject(Unmanaged<AnyObject>.fromOpaque(object).takeUnretainedValue(), typeName: typeName))
            }
            fallthrough
        default:
            lua_pushvalue(thread, index)
            return .opaque(LuaRef(core: self, poppingFrom: thread))
        }
    }

    /// The `__name` of the metatable on top of the stack (popped).
    private static func metatableName(_ thread: OpaquePointer) -> String {
        lua_pushstring(thread, "__name")
        lua_rawget(thread, -2)
        let name = lua_type(thread, -1) == LUA_TSTRING ? String(cString: lua_tolstring(thread, -1, nil)) : "userdata"
        esl_pop(thread, 2)
        return name
    }

    static func readString(at index: Int32, from thread: OpaquePointer) -> LuaValue {
        var length = 0
        guard let pointer = lua_tolstring(thread, index, &length) else { return .nil }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        if let text = String(validating: bytes, as: UTF8.self) { return .string(text) }
        return .bytes(Array(bytes))
    }

    private func readTable(
        at index: Int32, from thread: OpaquePointer, depth: Int, reading: inout TableReading
    ) throws(LuaError) -> LuaTable {
        let identity = lua_topointer(thread, index)
        if let identity, let known = try reading.known(identity) {
            // Read once, met again deeper: its own depth counts from here.
            guard depth + reading.lastHeight <= Self.maximumTableDepth else {
                throw LuaError(.typeMismatch, message: "table nested more than \(Self.maximumTableDepth) levels deep")
            }
            return known
        }
        guard depth < Self.maximumTableDepth else {
            throw LuaError(.typeMismatch, message: "table nested more than \(Self.maximumTableDepth) levels deep")
        }
        let countedBefore = reading.counted
        if let identity { reading.begin(identity) }
        guard lua_checkstack(thread, 4) != 0 else {
            throw LuaError(.typeMismatch, message: "Lua stack overflow while reading a table")
        }
        var table = LuaTable()
        var height = 0
        let length = Int(lua_rawlen(thread, index))
        var sequenceEnd = 0
        while sequenceEnd < length {
            lua_rawgeti(thread, index, lua_Integer(sequenceEnd + 1))
            defer { esl_pop(thread, 1) }
            if lua_type(thread, -1) == LUA_TNIL { break }
            table.array.append(try read(at: lua_gettop(thread), from: thread, depth: depth + 1, reading: &reading))
            height = max(height, reading.lastHeight)
            sequenceEnd += 1
        }
        lua_pushnil(thread)
        while lua_next(thread, index) != 0 {
            defer { esl_pop(thread, 1) }
            if lua_isinteger(thread, -2) != 0 {
                let key = lua_tointegerx(thread, -2, nil)
                if key >= 1 && key <= lua_Integer(sequenceEnd) { continue }
            }
            // Keys are read from a copy: lua_tolstring on the key itself would confuse lua_next.
            lua_pushvalue(thread, -2)
            let key = try read(at: lua_gettop(thread), from: thread, depth: depth + 1, reading: &reading)
            height = max(height, reading.lastHeight)
            esl_pop(thread, 1)
            table.fields[key] = try read(at: lua_gettop(thread), from: thread, depth: depth + 1, reading: &reading)
            height = max(height, reading.lastHeight)
        }
        height += 1
        if let identity { reading.end(identity, table: table, size: reading.counted - countedBefore, height: height) }
        reading.lastHeight = height
        return table
    }

    /// Pushes `value` onto `thread`: one slot, or none when it fails (no half-built table is left).
    func push(_ value: LuaValue, onto thread: OpaquePointer) throws(LuaError) {
        let top = lua_gettop(thread)
        do {
            try push(value, onto: thread, depth: 0)
        } catch {
            lua_settop(thread, top)
            throw error
        }
    }

    private func push(_ value: LuaValue, onto thread: OpaquePointer, depth: Int) throws(LuaError) {
        guard lua_checkstack(thread, 3) != 0 else {
            throw LuaError(.typeMismatch, message: "Lua stack overflow while pushing a value")
        }
        switch value {
        case .nil: lua_pushnil(thread)
        case .boolean(let flag): lua_pushboolean(thread, flag ? 1 : 0)
        case .integer(let number): lua_pushinteger(thread, lua_Integer(number))
        case .number(let number): lua_pushnumber(thread, number)
        case .string(let text): Self.pushString(text, onto: thread)
        case .bytes(let bytes): bytes.withUnsafeBufferPointer { _ = lua_pushlstring(thread, $0.baseAddress, $0.count) }
        case .table(let table):
            guard depth < Self.maximumTableDepth else {
                throw LuaError(.typeMismatch, message: "table nested more than \(Self.maximumTableDepth) levels deep")
            }
            lua_createtable(thread, Int32(clamping: table.array.count), Int32(clamping: table.fields.count))
            for (offset, element) in table.array.enumerated() {
                try push(element, onto: thread, depth: depth + 1)
                lua_rawseti(thread, -2, lua_Integer(offset + 1))
            }
            for (key, element) in table.fields {
                if key == .nil { continue }
                if case .number(let number) = key, number.isNaN { continue }
                try push(key, onto: thread, depth: depth + 1)
                try push(element, onto: thread, depth: depth + 1)
                lua_rawset(thread, -3)
            }
        case .function(let ref):
            try push(ref, onto: thread)
        case .opaque(let ref):
            try push(ref, onto: thread)
        case .object(let object):
            esl_push_swift_object(thread, Unmanaged.passRetained(object.object).toOpaque(), object.typeName)
        }
    }

    /// Pushes the value `ref` keeps, which must belong to this state: a reference is an index into its
    /// own state's registry, and in another it would name whatever sits there (a value Swift kept from
    /// the state a reload of the start-up scripts replaced, say).
    private func push(_ ref: LuaRef, onto thread: OpaquePointer) throws(LuaError) {
        try ref.checkUsable()
        guard ref.core === self else {
            throw LuaError(.typeMismatch, message: "a Lua \(ref.typeName) of another Lua state cannot be used in this one (one that a reload of the start-up scripts replaced?)")
        }
        ref.push(onto: thread)
    }

    static func pushString(_ text: String, onto thread: OpaquePointer) {
        var text = text
        text.withUTF8 { _ = lua_pushlstring(thread, $0.baseAddress, $0.count) }
    }
}
