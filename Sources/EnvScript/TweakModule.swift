import Foundation
import Logging
import LuaBridge
import Preferences
import Tweaks

/// The Lua module `tweak`: the provider stack, lookups, overrides, the decryptor and change handlers.
///
/// `get` returns nil for a missing tweak; `value` returns its default only for a missing tweak (a value
/// of another type is an error, not a silent fallback); `enabled` is false for a missing flag. Provider
/// failures and decryption errors are raised, never taken for "missing".
enum TweakModule {
    static func make(host: EnvScriptHost, generation: ScriptGeneration) -> LuaModule {
        var module = LuaModule("tweak")
        let kept = KeptValueLedger(lua: generation.lua)
        registerProviderFunctions(on: &module, host: host, generation: generation)
        registerRemoteFunctions(on: &module, host: host, generation: generation, kept: kept)
        registerLookupFunctions(on: &module, host: host)
        registerChangeFunctions(on: &module, host: host, generation: generation, kept: kept)
        registerSecretFunctions(on: &module, host: host, generation: generation)
        return module
    }

    /// Where a value set by the script is kept: a provider's feature and variable, each part preceded by
    /// its length, so that no two places are written alike (`"a b", "c"` and `"a", "b c"` are two).
    static func place(_ feature: String, _ variable: String, _ provider: String?) -> String {
        ([provider ?? "", feature, variable].map { "\($0.utf8.count):\($0)" }).reduce("tweak ", +)
    }
}
