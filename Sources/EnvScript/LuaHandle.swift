import LuaBridge

/// What Lua gets back from `on_change`, `on_will_change` and the like: `handle:remove()` unregisters.
final class LuaHandle {
    /// The Lua type name of handles.
    static let typeName = "envscript.handle"

    private var onRemove: (() -> Void)?

    init(onRemove: @escaping () -> Void) {
        self.onRemove = onRemove
    }

    /// Unregisters; calling it again does nothing.
    func remove() {
        let action = onRemove
        onRemove = nil
        action?()
    }

    /// The Lua value of this handle.
    var luaValue: LuaValue { .object(LuaObject(self, typeName: Self.typeName)) }

    /// Defines the handle type (its `remove` method) in `lua`.
    static func define(in lua: LuaState) {
        lua.defineObjectType(typeName, methods: [
            "remove": LuaFunction("handle:remove") { call in
                try call.object(1, as: LuaHandle.self, typeName: "handle").remove()
                return 0
            },
        ])
    }
}
