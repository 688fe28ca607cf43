import EnvScript
import LuaBridge

/// The Lua side of scenarios, in `Sources/Scenarios/Lua` (embedded in the binary): busted's
/// declarations (`busted.lua`); luassert's `assert` object (`luassert.lua`) over chains of words
/// (`chains.lua`), its built-in assertions (`assertions.lua`) and messages (`messages.lua`, through
/// `say.lua`), its state of snapshots (`state.lua`) and formatters (`format.lua`); spies, stubs and
/// mocks (`spies.lua`), argument matchers (`matchers.lua`), and what they share (`util.lua`,
/// `compare.lua`).
///
/// Each part is its own chunk, named `[envscript]/<file>`, so that tracebacks can leave out its frames.
/// Loading a file runs its top level; ``ScenarioRunner`` then walks its blocks, runs their bodies as it
/// reaches them, enters blocks, runs hooks and tests and leaves blocks through the functions of
/// ``Functions``, each call its own entry into Lua.
enum ScenarioPrelude {
    /// The functions of `busted.lua` that the runner calls.
    struct Functions {
        /// `collect(seed?)`: ends the file just loaded, answering its root block's id; the next file
        /// starts afresh.
        var collect: LuaFunctionRef
        /// `walk(id, pass)` starts walking the file whose root block is `id` in a pass of the run;
        /// `step()` answers its next entry (a test, a block to enter and leave, or `{expand = id}`), nil
        /// at the end.
        var walk: LuaFunctionRef
        var step: LuaFunctionRef
        /// `expand(id)` runs the body of the block `step` asked for; `abandon(id)` after it failed;
        /// `skip()` passes over it without running its body.
        var expand: LuaFunctionRef
        var abandon: LuaFunctionRef
        var skip: LuaFunctionRef
        /// `declared()`: whether the file being loaded declared anything.
        var declared: LuaFunctionRef
        /// `enter(id)`, `start(id)`, `leave(id)`: a block's insulation and setups, its lazy setups, and
        /// its teardowns.
        var enter: LuaFunctionRef
        var start: LuaFunctionRef
        var leave: LuaFunctionRef
        /// `names(id)`: a block's names.
        var names: LuaFunctionRef
        /// `begin(id)` and `finish(failed, message)` around a test body: the test's own globals, its
        /// `finally` callbacks, and how a failed body ended ("pending", "failure" or nothing: an error).
        var begin: LuaFunctionRef
        var finish: LuaFunctionRef
        /// `open_file(isSpec)` before each file loads.
        var openFile: LuaFunctionRef
        /// A main chunk whose `_ENV` every run file gets (``LuaFunctionRef/setEnvironment(like:)``):
        /// where busted keeps a scenario file's globals.
        var scope: LuaFunctionRef
    }

    /// The chunk name every part's name starts with (no path a script is run by reads like it).
    static let chunkPrefix = "[envscript]/"

    /// Whether a traceback line is a frame of one of the parts.
    static func isPartFrame(_ line: Substring) -> Bool {
        (parts.map(\.name) + ["wiring"]).contains { line.contains("\t" + chunkPrefix + $0 + ":") }
    }

    /// The parts, in the order the wiring takes them.
    static let parts: [EmbeddedLuaChunk] = [
        EmbeddedLuaChunk(name: "say.lua", source: PackageResources.say_lua),
        EmbeddedLuaChunk(name: "state.lua", source: PackageResources.state_lua),
        EmbeddedLuaChunk(name: "compare.lua", source: PackageResources.compare_lua),
        EmbeddedLuaChunk(name: "util.lua", source: PackageResources.util_lua),
        EmbeddedLuaChunk(name: "chains.lua", source: PackageResources.chains_lua),
        EmbeddedLuaChunk(name: "luassert.lua", source: PackageResources.luassert_lua),
        EmbeddedLuaChunk(name: "matchers.lua", source: PackageResources.matchers_lua),
        EmbeddedLuaChunk(name: "format.lua", source: PackageResources.format_lua),
        EmbeddedLuaChunk(name: "spies.lua", source: PackageResources.spies_lua),
        EmbeddedLuaChunk(name: "messages.lua", source: PackageResources.messages_lua),
        EmbeddedLuaChunk(name: "assertions.lua", source: PackageResources.assertions_lua),
        EmbeddedLuaChunk(name: "busted.lua", source: PackageResources.busted_lua),
    ]

    /// Wires the parts together and makes the globals: `assert`, `spy`, `stub`, `mock`, `match` and
    /// busted's declarations.
    private static let wiring = """
        local say_part, state_part, compare_part, util_part, chains_part, luassert_part, matchers_part,
          format_part, spies_part, messages_part, assertions_part, busted_part = ...
        local say, state, compare = say_part(), state_part(), compare_part()
        local util = util_part(compare)
        local chains = chains_part()
        -- `engine.fail(message, level)` raises every assertion failure.
        local engine = luassert_part(chains, state, say, util)
        local luassert = engine.assert
        local match = matchers_part(chains, luassert, util, compare, say)
        format_part(luassert, util, match)
        local spies = spies_part(luassert, util)
        messages_part(say)
        assertions_part(luassert, util, compare, say)
        -- luassert's modules, for `require` under their own names (luassert's parts that only register
        -- what is built in here answer true, as they do there).
        if rawget(_G, "package") then
          local modules = {
            luassert = luassert, ["luassert.assert"] = luassert, ["luassert.match"] = match,
            ["luassert.spy"] = spies.spy, ["luassert.stub"] = spies.stub, ["luassert.mock"] = spies.mock,
            ["luassert.util"] = util, ["luassert.state"] = state, ["luassert.namespaces"] = chains.namespaces,
            ["luassert.compatibility"] = { unpack = util.unpack }, say = say, ["luassert.say"] = say,
          }
          for _, name in ipairs({ "luassert.assertions", "luassert.modifiers", "luassert.array",
            "luassert.matchers", "luassert.matchers.core", "luassert.matchers.composite", "luassert.formatters",
            "luassert.languages.en" }) do
            modules[name] = true
          end
          for name, value in pairs(modules) do
            package.preload[name] = function() return value end
            package.loaded[name] = value
          end
        end
        -- `assert` stays Lua's own: scenario files read luassert's through busted.lua's scope.
        spy, stub, mock, _G.match = spies.spy, spies.stub, spies.mock, match
        local api = busted_part(luassert, spies.spy, spies.stub, spies.mock, match, engine)
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
            collect: try function("collect"), walk: try function("walk"), step: try function("step"),
            expand: try function("expand"), abandon: try function("abandon"), skip: try function("skip"),
            declared: try function("declared"), enter: try function("enter"),
            start: try function("start"), leave: try function("leave"), names: try function("names"),
            begin: try function("begin"), finish: try function("finish"), openFile: try function("open_file"),
            scope: try function("scope"))
    }
}
