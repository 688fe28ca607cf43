import LuaBridge
import Tweaks

extension TweakContext {
    /// The context a Lua script gives as argument `position`: nil (none), or a table as OpenFeature
    /// writes a context — `{targetingKey = "user-1", country = "DE", plan = {tier = "premium"}}`.
    init(argument position: Int32, of call: LuaCall) throws {
        let value = try call.value(position)
        if value == .nil {
            self = .empty
            return
        }
        guard case .table = value else {
            throw call.argumentError(position, "expected a context table such as {targetingKey = 'user-1', country = 'DE'}, not a \(value.typeName)")
        }
        do {
            guard case .object(let object) = try JSONValue(flagValue: value) else {
                throw LuaScriptError("a context has named fields, not a list")
            }
            self = try TweakContext(jsonObject: object)
        } catch {
            throw call.argumentError(position, "\(error)")
        }
    }

    /// The context as the table a Lua provider's `get` receives: its attributes and `targetingKey` (a
    /// null is nil there: a field left out, a hole in a list).
    var luaValue: LuaValue { JSONValue.object(jsonObject).luaValue }
}

extension TweakDefaultAnswer {
    /// What `tweak.get` returns beside nil for a flag whose provider leaves the value to the caller's
    /// default: `feature, variable, source, reason, error_code, error_message, metadata`.
    func luaTable(source: String) -> LuaValue {
        var table = LuaTable()
        table["feature"] = .string(feature)
        table["variable"] = .string(variable)
        table["source"] = .string(source)
        table["reason"] = .string(reason.rawValue)
        if let errorCode { table["error_code"] = .string(errorCode.rawValue) }
        if let errorMessage { table["error_message"] = .string(errorMessage) }
        if !metadata.isEmpty { table["metadata"] = JSONValue.object(metadata).luaValue }
        return .table(table)
    }
}
