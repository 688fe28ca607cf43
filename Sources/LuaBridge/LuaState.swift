import CLua
import CLuaSupport
import Foundation

/// One Lua 5.4 state: sandboxed, with a memory cap and an instruction budget per call into Lua.
///
/// A state is used from one thread at a time (it is not `Sendable`); hosts serialise access to it.
/// Dropping it, or calling ``close()``, closes the state: finalizers run and every ``LuaRef`` becomes
/// unusable. Closures stored in Lua should not capture the state itself (use the ``LuaCall`` they get).
public final class LuaState {
    let core: LuaStateCore

    /// Creates a state with the sandbox of DESIGN.md plus `options.libraries`.
    public init(options: LuaOptions = LuaOptions()) throws {
        guard let thread = esl_newstate(luaDispatch, luaRelease) else {
            throw LuaError(.memoryLimit, message: "cannot create a Lua state: out of memory")
        }
        core = LuaStateCore(mainThread: thread)
        core.runtime.pointee.owner = Unmanaged.passUnretained(core).toOpaque()
        core.scriptRoots = options.scriptRoots
        core.libraryRoots = options.libraryRoots
        if esl_open_sandbox(thread, options.libraries.rawValue) != LUA_OK {
            let error = core.error(status: LUA_ERRRUN, on: thread)
            core.closeWhenIdle()
            throw error
        }
        ModuleLoader.install(in: core)
        memoryLimit = options.memoryLimit
        instructionLimit = options.instructionLimit
    }

    /// Letting go of the state closes it; during a call into it (a Swift function that Lua called
    /// dropped the last reference), it closes once that call has returned.
    deinit { core.closeWhenIdle() }

    /// Closes the state now. Later calls through refs throw ``LuaError/Kind/stateClosed``; closing again
    /// does nothing.
    ///
    /// - Throws: ``LuaError/Kind/stateInUse`` when a call into the state is running (the caller is a
    ///   Swift function that Lua called): close it once that call has returned.
    public func close() throws(LuaError) { try core.close() }

    /// Whether the state is still open.
    package var isOpen: Bool { core.isOpen }

    /// Whether a call into the state is running now (this is then a Swift function that Lua called).
    package var isInCall: Bool { core.callDepth > 0 }

    /// The depth of the stack that the next call from Swift would use (for tests of stack balance).
    var stackDepth: Int32 { core.isOpen ? lua_gettop(core.currentThread) : 0 }

    /// The memory cap in bytes, or `nil` for none.
    public var memoryLimit: Int? {
        get { core.isOpen && core.runtime.pointee.memory_limit > 0 ? Int(core.runtime.pointee.memory_limit) : nil }
        set { if core.isOpen { core.runtime.pointee.memory_limit = newValue.map { max(0, $0) } ?? 0 } }
    }

    /// The instruction budget of one call into Lua, or `nil` for none.
    package var instructionLimit: Int? {
        get { core.isOpen && core.runtime.pointee.instruction_limit > 0 ? Int(core.runtime.pointee.instruction_limit) : nil }
        set { if core.isOpen { esl_set_instruction_limit(core.mainThread, Int64(newValue ?? 0)) } }
    }

    /// Bytes Lua holds now.
    package var memoryInUse: Int { core.isOpen ? Int(core.runtime.pointee.bytes_in_use) : 0 }

    /// The files `require`, `loadfile` and `dofile` have loaded code from, in order: what a host watching
    /// its start-up scripts watches besides them.
    package var loadedFiles: [String] { core.loadedFiles }

    /// Registry references Swift holds now (refs to functions and opaque values).
    package var liveReferenceCount: Int { core.liveReferences.load(ordering: .relaxed) }

    /// Folders where `require` looks for `.lua` files, after host modules. Setting them also sets
    /// `package.path` to their `?.lua;?/init.lua` templates.
    public var scriptRoots: [String] {
        get { core.scriptRoots }
        set {
            core.scriptRoots = newValue
            if core.isOpen { ModuleLoader.setPath(for: core.loadableRoots, in: core) }
        }
    }

    /// Runs a full garbage collection.
    package func collectGarbage() {
        if core.isOpen { esl_collect_garbage(core.mainThread) }
    }

    // MARK: Loading and running

    /// Compiles a text chunk without running it. `chunkName` follows Lua: `@path` for files, `=name` otherwise.
    public func load(_ source: String, chunkName: String) throws -> LuaFunctionRef {
        try load(bytes: Array(source.utf8), chunkName: chunkName)
    }

    /// Compiles the file at `path` (chunk name `@path`, as given) without running it.
    public func load(contentsOfFile path: String) throws -> LuaFunctionRef {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LuaError(.syntax, message: "cannot read '\(path)': \(Self.readProblem(path))")
        }
        let chunk = try load(bytes: Array(data), chunkName: "@" + path)
        esl_coverage_note_file(core.mainThread, path)
        return chunk
    }

    /// `lua_ident` of the Lua library the process runs with: its release and copyright line.
    package static var libraryIdentification: String { String(cString: esl_lua_ident()) }

    /// Loads a chunk of Lua bytecode the program compiled itself (`LuaBytecodePlugin` at build time)
    /// without running it; the chunk name and line information are those the bytecode carries.
    ///
    /// Lua does not verify bytecode: malformed bytecode can crash the process. Never pass bytes that
    /// came from a script, a file or the network; scripts themselves can only load text chunks. Nor is
    /// the release checked (Lua 5.4's header names only 5.4): compare ``libraryIdentification`` with the
    /// compiling library's first.
    ///
    /// - Throws: a `LuaError` when the bytes are not bytecode this Lua library reads (another version
    ///   or number format, or truncated).
    package func load(precompiled bytecode: [UInt8], chunkName: String) throws -> LuaFunctionRef {
        try core.checkOpen()
        let thread = core.currentThread
        let status = bytecode.withUnsafeBufferPointer { esl_load_binary(thread, $0.baseAddress, $0.count, chunkName) }
        return try loaded(status: status, on: thread)
    }

    /// Runs a text chunk and returns its results.
    @discardableResult
    public func execute(_ source: String, chunkName: String = "=(string)", arguments: [LuaValue] = []) throws -> [LuaValue] {
        try load(source, chunkName: chunkName).call(arguments)
    }

    /// Runs the file at `path` and returns its results.
    @discardableResult
    package func executeFile(_ path: String, arguments: [LuaValue] = []) throws -> [LuaValue] {
        try load(contentsOfFile: path).call(arguments)
    }

    private func load(bytes: [UInt8], chunkName: String) throws -> LuaFunctionRef {
        try core.checkOpen()
        let thread = core.currentThread
        var bytes = bytes
        // Like lua.c, ignore a first line starting with '#' (a shebang), keeping line numbers.
        if bytes.first == UInt8(ascii: "#") {
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            bytes.replaceSubrange(bytes.startIndex..<end, with: [])
        }
        let status = bytes.withUnsafeBufferPointer { esl_load_text(thread, $0.baseAddress, $0.count, chunkName) }
        return try loaded(status: status, on: thread)
    }

    /// The function a load left on `thread`'s stack, or its error (popped) as a `LuaError`.
    private func loaded(status: Int32, on thread: OpaquePointer) throws -> LuaFunctionRef {
        guard status == LUA_OK else {
            let error = core.error(status: status, on: thread)
            esl_pop(thread, 1)
            throw error
        }
        return LuaFunctionRef(core: core, poppingFrom: thread)
    }

    private static func readProblem(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        return isDirectory.boolValue ? "it is a directory" : "permission denied"
    }

    // MARK: Globals and modules

    /// The value of a global variable (read raw: no metamethods run).
    package func global(_ name: String) throws -> LuaValue {
        try core.checkOpen()
        let thread = core.currentThread
        esl_pushglobaltable(thread)
        LuaStateCore.pushString(name, onto: thread)
        lua_rawget(thread, -2)
        defer { esl_pop(thread, 2) }
        return try core.read(at: -1, from: thread)
    }

    /// Sets a global variable (raw).
    public func setGlobal(_ name: String, _ value: LuaValue) throws {
        try core.checkOpen()
        let thread = core.currentThread
        esl_pushglobaltable(thread)
        LuaStateCore.pushString(name, onto: thread)
        do { try core.push(value, onto: thread) } catch {
            esl_pop(thread, 2)
            throw error
        }
        lua_rawset(thread, -3)
        esl_pop(thread, 1)
    }

    /// Makes a Swift function a global.
    public func setGlobal(_ name: String, function: LuaFunction) {
        guard core.isOpen else { return }
        let thread = core.currentThread
        esl_pushglobaltable(thread)
        LuaStateCore.pushString(name, onto: thread)
        core.push(function, onto: thread)
        lua_rawset(thread, -3)
        esl_pop(thread, 1)
    }

    /// Makes a host module available to `require`. A module of the same name is replaced.
    public func register(_ module: LuaModule) {
        core.modules[module.name] = module
    }

    /// The names of the registered host modules.
    package var moduleNames: [String] { core.modules.keys.sorted() }

    /// Declares the Lua type of Swift objects pushed as `.object(LuaObject(obj, typeName: name))`:
    /// their methods, called as `obj:method(...)` (the object is argument 1).
    public func defineObjectType(_ name: String, methods: [String: LuaFunction]) {
        guard core.isOpen else { return }
        let thread = core.currentThread
        esl_new_object_metatable(thread, name)
        lua_createtable(thread, 0, Int32(methods.count))
        for (method, function) in methods {
            LuaStateCore.pushString(method, onto: thread)
            core.push(function, onto: thread)
            lua_rawset(thread, -3)
        }
        LuaStateCore.pushString("__index", onto: thread)
        lua_rotate(thread, -2, 1)
        lua_rawset(thread, -3)
        esl_pop(thread, 1)
    }

    /// Makes a Lua value of a Swift function, to store in tables or pass to Lua functions.
    public func reference(to function: LuaFunction) throws -> LuaFunctionRef {
        try core.checkOpen()
        let thread = core.currentThread
        core.push(function, onto: thread)
        return LuaFunctionRef(core: core, poppingFrom: thread)
    }
}

extension LuaStateCore {
    /// Pushes a Swift function as a Lua closure that retains its box.
    func push(_ function: LuaFunction, onto thread: OpaquePointer) {
        esl_push_swift_function(thread, Unmanaged.passRetained(function.box).toOpaque())
    }
}
