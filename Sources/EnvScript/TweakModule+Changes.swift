import Foundation
import Logging
import LuaBridge
import Preferences
import Tweaks

extension TweakModule {
    /// Changing flags and hearing of changes: `set`, `delete`, `list_overrides`, `delete_all_overrides`, `cache`, `reset_cache` and `on_change`.
    static func registerChangeFunctions(
        on module: inout LuaModule, host: EnvScriptHost, generation: ScriptGeneration, kept: KeptValueLedger
    ) {
        // The module lives in the generation's state: holding the generation would keep both alive.
        unowned let generation = generation
        let tweaks = host.tweaks
        module.function("set") { call in
            let feature = try call.argument(1, as: String.self)
            let variable = try call.argument(2, as: String.self)
            let value = try JSONValue(argument: 3, of: call)
            let provider = try call.argument(4, as: String?.self)
            let bytes = KeptValueLedger.size(of: value) + KeptValueLedger.size(ofNames: feature, variable, provider)
            try kept.keep(bytes, at: place(feature, variable, provider), by: "tweak.set") {
                try tweaks.set(value, feature: feature, variable: variable, provider: provider)
            }
            return 0
        }

        module.function("delete") { call in
            let feature = try call.argument(1, as: String.self)
            let variable = try call.argument(2, as: String.self)
            let provider = try call.argument(3, as: String?.self)
            try kept.release(place(feature, variable, provider), by: "tweak.delete") {
                try tweaks.delete(feature: feature, variable: variable, provider: provider)
            }
            return 0
        }

        module.function("list_overrides") { call in
            call.push(LuaValue.array(try tweaks.listOverrides().map(\.luaTable)))
            return 1
        }

        module.function("delete_all_overrides") { call in
            let removed = try tweaks.deleteAllOverrides().removed
            try kept.releaseAll(startingWith: "tweak ", by: "tweak.delete_all_overrides")
            call.push(LuaValue.integer(removed))
            return 1
        }

        module.function("cache") { call in
            tweaks.cacheEnabled = try call.argument(1, as: Bool.self)
            return 0
        }

        module.function("reset_cache") { _ in
            tweaks.resetCache()
            return 0
        }

        module.function("on_change") { [unowned host, unowned generation] call in
            let handler = LuaCallback(try call.function(1), lock: host.lock)
            let logger = host.logger
            let handle = try generation.register(by: "tweak.on_change") {
                let observation = tweaks.observe { change in
                    let tweak: LuaValue = change.tweak?.luaTable
                        ?? .dictionary(["feature": change.key.map { .string($0.feature) } ?? .nil,
                                        "variable": change.key.map { .string($0.variable) } ?? .nil])
                    do {
                        _ = try handler.call([tweak])
                    } catch {
                        logger.error("a tweak.on_change handler failed: \(error)")
                    }
                }
                return { observation.remove() }
            }
            call.push(handle.luaValue)
            return 1
        }
    }
}
