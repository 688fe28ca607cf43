import LuaBridge

/// The version of EnvScript and of the Lua it embeds.
package enum EnvScriptVersion {
    /// EnvScript's own version.
    package static let current = "0.1.0"

    /// The line `envscript --version` prints.
    package static var banner: String { "envscript \(current) (Lua \(LuaState.luaVersion))" }
}
