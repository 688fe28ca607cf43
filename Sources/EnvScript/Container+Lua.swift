#if Sharing
import ContainerSharing
#endif
import Containers
import Foundation
import LuaBridge

extension Container {
    /// The Lua table of a container: `uuid, name, description, is_default, is_active, created_at,
    /// last_activated_at, activated_count` (dates as ISO 8601 text).
    func luaTable(activeUUID: UUID?) -> LuaValue {
        var table = LuaTable()
        table["uuid"] = .string(uuid.uuidString)
        table["name"] = .string(name)
        if let description { table["description"] = .string(description) }
        table["is_default"] = .boolean(isDefault)
        table["is_active"] = .boolean(uuid == activeUUID)
        table["created_at"] = .string(createdAt.formatted(.iso8601))
        if let lastActivatedAt { table["last_activated_at"] = .string(lastActivatedAt.formatted(.iso8601)) }
        table["activated_count"] = .integer(activatedCount)
        return .table(table)
    }
}

extension DamagedContainer {
    /// The Lua table of a container whose record cannot be used: `uuid, is_default, is_active,
    /// record_path, problem` (what is wrong with the record, in words).
    func luaTable(activeUUID: UUID?) -> LuaValue {
        var table = LuaTable()
        table["uuid"] = .string(uuid.uuidString)
        table["is_default"] = .boolean(uuid == Container.defaultUUID)
        table["is_active"] = .boolean(uuid == activeUUID)
        table["record_path"] = .string(path)
        table["problem"] = .string(reason)
        return .table(table)
    }
}

#if Sharing
extension ScriptValue {
    /// A diff as Lua sees it: the `--json` shape with snake_case keys (`size_before`, `keys`...).
    init(diffOf diff: ContainerDiff) throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        self = try JSONDecoder().decode(ScriptValue.self, from: encoder.encode(diff))
    }
}
#endif
