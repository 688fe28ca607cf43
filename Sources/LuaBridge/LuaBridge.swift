// LuaBridge: Swift over the Lua C API.
