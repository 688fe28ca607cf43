import EnvScript
import LuaBridge

/// The Lua side of scenarios, in `Sources/Scenarios/Lua` (embedded in the binary): busted's
/// declarations (`busted.lua`), luassert's `assert` (`assertions.lua`), spies, stubs and mocks
/// (`spies.lua`), argument matchers (`matchers.lua`), and what they share (`format.lua`,
/// `compare.lua`).
///
/// Each part is its own chunk, named `[envscript]/<file>`, so that tracebacks can leave out its frames.
/// Loading a file only collects tests; ``ScenarioRunner`` then enters blocks, runs hooks and tests and
/// leaves blocks through the functions of ``Functions``, each call its own entry into Lua.
enum ScenarioPrelude {
    /// The functions of `busted.lua` that the runner calls.
    struct Functions {
        /// `collect(seed?)`: the tests the file just loaded declared; the next file starts afresh.
        var collect: LuaFunctionRef
        /// `declared()`: whether the file being loaded declared anything.
        var declared: LuaFunctionRef
        /// `enter(id)`, `start(id)`, `leave(id)`: a block's insulation and setups, its lazy setups, and
        /// its teardowns.
        var enter: LuaFunctionRef
        var start: LuaFunctionRef
        var leave: LuaFunctionRef
        /// `names(id)`: a block's names.
        var names: LuaFunctionRef
        /// `begin()` and `finish()` around a test body: `finally` callbacks.
        var begin: LuaFunctionRef
        var finish: LuaFunctionRef
    }

    /// The chunk name every part's name starts with (no path a script is run by reads like it).
    static let chunkPrefix = "[envscript]/"

    /// Whether a traceback line is a frame of one of the parts.
    static func isPartFrame(_ line: Substring) -> Bool {
        (parts.map(\.name) + ["wiring"]).contains { line.contains("\t" + chunkPrefix + $0 + ":") }
    }

    /// The parts, in the order the wiring takes them.
    static let parts: [EmbeddedLuaChunk] = [
        EmbeddedLuaChunk(name: "format.lua", source: PackageResources.format_lua),
        EmbeddedLuaChunk(name: "compare.lua", source: PackageResources.compare_lua),
        EmbeddedLuaChunk(name: "matchers.lua", source: PackageResources.matchers_lua),
        EmbeddedLuaChunk(name: "spies.lua", source: PackageResources.spies_lua),
        EmbeddedLuaChunk(name: "assertions.lua", source: PackageResources.assertions_lua),
        EmbeddedLuaChunk(name: "busted.lua", source: PackageResources.busted_lua),
    ]

    /// Wires the parts together and makes the globals: `assert`, `spy`, `stub`, `mock`, `match` and
    /// busted's declarations.
    private static let wiring = """
        local format_part, compare_part, matchers_part, spies_part, assertions_part, busted_part = ...
        local format = format_part()
        local compare = compare_part(format)
        local match = matchers_part(format, compare)
        local spies = spies_part(match)
        assert = assertions_part(format, compare, match, spies)
        spy, stub, mock, _G.match = spies.spy, spies.stub, spies.mock, match
        local api = busted_part()
        api.reset()
        return api
        """

    /// Loads the parts into `host` and returns the runner's functions.
    static func load(into host: EnvScriptHost) throws -> Functions {
        let api = try host.lock.withLock {
            let chunks = try parts.map { LuaValue.function(try $0.load(into: host.lua)) }
            return try host.lua.execute(wiring, chunkName: "=" + chunkPrefix + "wiring", arguments: chunks).first
        }
        func function(_ name: String) throws -> LuaFunctionRef {
            guard case .function(let function) = api?[name] else {
                throw LuaScriptError("the scenario prelude did not return its function '\(name)'")
            }
            return function
        }
        return Functions(
            collect: try function("collect"), declared: try function("declared"), enter: try function("enter"),
            start: try function("start"), leave: try function("leave"), names: try function("names"),
            begin: try function("begin"), finish: try function("finish"))
    }
}
