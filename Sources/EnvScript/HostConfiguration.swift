import Foundation
import LuaBridge

/// How a ``EnvScriptHost`` is set up: where the application's home is and how the Lua state is limited.
public struct HostConfiguration: Sendable {
    /// The application's writable root: the folder whose contents containers switch.
    public var home: URL
    /// Limits, extra libraries and script roots of the Lua state.
    public var lua: LuaOptions

    /// A configuration over `home` with the default sandbox and limits.
    public init(home: URL, lua: LuaOptions = LuaOptions()) {
        self.home = home
        self.lua = lua
    }
}
