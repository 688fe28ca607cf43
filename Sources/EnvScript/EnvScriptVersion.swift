import LuaBridge

/// The version of EnvScript and of the Lua it embeds.
public enum EnvScriptVersion {
    /// EnvScript's own version.
    public static let current = "0.1.0"

    /// The line `envscript --version` prints.
    public static var banner: String { "envscript \(current) (Lua \(LuaState.luaVersion))" }
}
