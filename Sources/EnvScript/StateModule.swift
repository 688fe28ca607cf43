import AppState
import LuaBridge

/// The Lua module `state`: application state under explicit keys, living in the active container.
///
/// Declarations — `memory(key, initial)`, `stored(key, initial)` (the container's preferences),
/// `file(key, initial)` (a JSON file in the container) and `secure(key [, initial])` (encrypted at
/// rest with a key kept outside the containers) — return the current value; declaring a key again with
/// the same kind is allowed, and a key declared from Swift with that kind keeps its Swift type. `get`,
/// `set`, `reset`, `reset_all` and `keys` work on any declared key, including state declared from Swift:
/// `set` decodes a table into the `Codable` struct such a key holds.
///
/// A reload (``EnvScriptHost/reloadStartupScripts()``) keeps every value: a key the new scripts declare
/// again keeps the value it holds, and one whose initial value changed type is refused.
enum StateModule {
    static func make(host: EnvScriptHost, generation: ScriptGeneration) -> LuaModule {
        // The module lives in the generation's state: holding the generation would keep both alive.
        unowned let generation = generation
        var module = LuaModule("state")
        let application = host.application
        // What the script hands over is charged to its memory limit: a declaration's initial value for
        // as long as the key is declared, a value set until it is reset or replaced.
        let kept = KeptValueLedger(lua: generation.lua)

        /// Argument `position` as a value state can hold, or an argument error saying why not.
        func storable(_ call: LuaCall, _ position: Int32) throws -> JSONValue {
            do {
                return try JSONValue(lua: try call.value(position))
            } catch {
                throw call.argumentError(position, "\(error)")
            }
        }
        /// Declares `key` with `make`, unless it is declared already with the same kind — from Swift,
        /// with a type of its own, or by another script — which then stands; returns its value.
        func declare(_ call: LuaCall, _ kind: StateKind, _ make: (String, JSONValue) throws -> Void) throws -> Int32 {
            let key = try call.argument(1, as: String.self)
            let initial = try storable(call, 2)
            try generation.declareState(key, initial: initial, by: "state.\(kind)")
            if application.kind(ofKey: key) != kind {
                let bytes = KeptValueLedger.size(of: initial) + KeptValueLedger.size(ofNames: key)
                try kept.keep(bytes, at: "state initial \(key)", by: "state.\(kind)") { try make(key, initial) }
            }
            call.push(try JSONValue(swift: application.value(forKey: key)).luaValue)
            return 1
        }

        module.function("memory") { call in try declare(call, .memory) { _ = try application.state($0, initial: $1) } }
        module.function("stored") { call in try declare(call, .stored) { _ = try application.storedState($0, initial: $1) } }
        module.function("file") { call in try declare(call, .file) { _ = try application.fileState($0, initial: $1) } }
        module.function("secure") { call in try declare(call, .secure) { _ = try application.secureState($0, initial: $1) } }
        module.function("get") { call in
            call.push(try JSONValue(swift: application.value(forKey: try call.argument(1, as: String.self))).luaValue)
            return 1
        }
        module.function("set") { call in
            let value = try storable(call, 2)
            let key = try call.argument(1, as: String.self)
            try kept.keep(KeptValueLedger.size(of: value) + KeptValueLedger.size(ofNames: key), at: "state value \(key)", by: "state.set") {
                try application.setScriptValue(value, forKey: key)
            }
            return 0
        }
        module.function("reset") { call in
            let key = try call.argument(1, as: String.self)
            try kept.release("state value \(key)", by: "state.reset") { try application.reset(key: key) }
            return 0
        }
        module.function("reset_all") { _ in
            try application.resetAll()
            try kept.releaseAll(startingWith: "state value ", by: "state.reset_all")
            return 0
        }
        module.function("keys") { call in
            call.push(LuaValue.array(application.declaredKeys.map(LuaValue.string)))
            return 1
        }
        return module
    }
}
