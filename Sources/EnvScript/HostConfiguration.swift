import Foundation
import LuaBridge

/// How an ``EnvScriptHost`` is set up: where the application's home is, its identifier, and how the
/// Lua state is limited.
public struct HostConfiguration: Sendable {
    /// The application's writable root: the folder whose contents containers switch.
    public var home: URL
    /// The application's identifier; names its preferences file, `Library/Preferences/<appID>.plist`.
    public var appID: String
    /// Limits, extra libraries and script roots of the Lua state.
    public var lua: LuaOptions
    /// The key file of secure state (mode 0600, created when missing). It must lie outside the home,
    /// so that no container carries it; by default `keys/<appID>.key` beside the home.
    public var secureKeyFile: URL

    /// A configuration over `home` with the default sandbox and limits.
    public init(home: URL, appID: String = "envscript", lua: LuaOptions = LuaOptions(), secureKeyFile: URL? = nil) {
        self.home = home
        self.appID = appID
        self.lua = lua
        self.secureKeyFile = secureKeyFile
            ?? home.deletingLastPathComponent().appendingPathComponent("keys/\(appID).key")
    }
}
