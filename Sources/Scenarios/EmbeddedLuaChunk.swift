import LuaBridge

/// One of the Lua files embedded in the binary (`Sources/Scenarios/Lua`), loaded from the bytecode
/// `LuaBytecodePlugin` compiled at build time, which spares every run the parsing of the prelude (about
/// a millisecond). The source is embedded too, and loaded instead when the Lua library the process runs
/// with is not the one that compiled the bytecode (its `lua_ident`, release included, differs: Lua 5.4's
/// bytecode header does not tell one 5.4 release from another).
struct EmbeddedLuaChunk {
    /// The file's name, as in `PrecompiledLua.chunks`.
    let name: String
    /// The file's source.
    let source: [UInt8]

    /// The chunk name the bytecode carries and the source is loaded under: tracebacks recognise the
    /// prelude's frames by it.
    var chunkName: String { "=" + ScenarioPrelude.chunkPrefix + name }

    /// Whether the bytecode was compiled by the Lua library this process runs with.
    static let bytecodeMatchesLibrary = PrecompiledLua.luaIdent == LuaState.libraryIdentification

    /// The compiled chunk, not run.
    func load(into lua: LuaState) throws -> LuaFunctionRef {
        if Self.bytecodeMatchesLibrary, let bytecode = PrecompiledLua.chunks[name] {
            do {
                return try lua.load(precompiled: bytecode, chunkName: chunkName)
            } catch {
                // The library that compiled it refusing its own bytecode is a fault of the build: the
                // source still serves a release build.
                assertionFailure("the bytecode of \(name) did not load: \(error)")
            }
        }
        return try lua.load(String(decoding: source, as: UTF8.self), chunkName: chunkName)
    }
}
