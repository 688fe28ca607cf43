import CLua

extension LuaState {
    /// The Lua release the bridge was compiled against, such as `5.4.6`.
    package static let luaVersion = "\(LUA_VERSION_MAJOR).\(LUA_VERSION_MINOR).\(LUA_VERSION_RELEASE)"
}
