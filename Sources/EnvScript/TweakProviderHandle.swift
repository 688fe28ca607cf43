import LuaBridge
#if RemoteFlags
import RemoteTweaks
#endif
import Tweaks

/// A tweak provider as Lua holds it (a userdata of type `tweak.provider`), to pass to `tweak.stack`.
final class TweakProviderHandle {
    static let typeName = "tweak.provider"

    let provider: any TweakProvider

    init(_ provider: any TweakProvider) {
        self.provider = provider
    }

    var luaValue: LuaValue { .object(LuaObject(self, typeName: Self.typeName)) }

    /// Defines the provider type in `lua`: `provider:name()`, and `provider:status()` (a table for a
    /// remote provider, nil for the others).
    static func define(in lua: LuaState) {
        lua.defineObjectType(typeName, methods: [
            "name": LuaFunction("provider:name") { call in
                let handle = try call.object(1, as: TweakProviderHandle.self, typeName: typeName)
                call.push(handle.provider.name)
                return 1
            },
            "status": LuaFunction("provider:status") { call in
                let handle = try call.object(1, as: TweakProviderHandle.self, typeName: typeName)
                switch handle.provider {
                #if RemoteFlags
                case let remote as RemoteTweakProvider: call.push(remote.statusLuaTable)
                case let ofrep as OFREPTweakProvider: call.push(RemoteTweakProvider.statusLuaTable(ofrep.status, url: ofrep.bulkURL))
                #endif
                default: call.push(LuaValue.nil)
                }
                return 1
            },
        ])
    }
}
