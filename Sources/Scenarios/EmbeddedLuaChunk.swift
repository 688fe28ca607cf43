import LuaBridge

/// One of the Lua files embedded in the binary (`Sources/Scenarios/Lua`), loaded from the bytecode
/// `LuaBytecodePlugin` compiled at build time, which spares every run the parsing of the prelude (about
/// a millisecond). The source is embedded too: it is loaded instead when the Lua library the process
/// runs with does not read that bytecode (another release of Lua 5.4 than the build's).
struct EmbeddedLuaChunk {
    /// The file's name, as in `PrecompiledLua.chunks`.
    let name: String
    /// The file's source.
    let source: [UInt8]

    /// The chunk name the bytecode carries and the source is loaded under: tracebacks recognise the
    /// prelude's frames by it.
    var chunkName: String { "=" + ScenarioPrelude.chunkPrefix + name }

    /// The compiled chunk, not run.
    func load(into lua: LuaState) throws -> LuaFunctionRef {
        if let bytecode = PrecompiledLua.chunks[name], let function = try? lua.load(precompiled: bytecode, chunkName: chunkName) {
            return function
        }
        return try lua.load(String(decoding: source, as: UTF8.self), chunkName: chunkName)
    }
}
