#if Sharing
import ContainerSharing
#endif
import Containers
import Foundation
import LuaBridge

/// The Lua module `container`: list, create, switch and manage the containers of the host's home,
/// and hooks that run around every switch (from Lua, Swift or the command line alike).
///
/// `get` returns nil for an unknown container; every other function raises a clear error. An error in
/// an `on_will_change` hook cancels the switch and nothing on disk changes.
enum ContainerModule {
    /// Why a string whose bytes are not UTF-8 is refused where text is stored.
    private static let notUTF8 = "must be UTF-8 text, and this string holds bytes that are not UTF-8"

    static func make(host: EnvScriptHost, generation: ScriptGeneration) -> LuaModule {
        // The module lives in the generation's state: holding the generation would keep both alive.
        unowned let generation = generation
        var module = LuaModule("container")
        let containers = host.containers
        let operations = host.containerOperations

        func options(_ call: LuaCall, _ position: Int32) throws -> LuaTable {
            try call.optionalTable(position) ?? LuaTable()
        }
        func optionalText(_ call: LuaCall, _ table: LuaTable, _ field: String, position: Int32) throws -> String? {
            switch table[field] {
            case .nil: return nil
            case .string(let text): return text
            case .bytes: throw call.argumentError(position, "field '\(field)' \(notUTF8)")
            case let other: throw call.argumentError(position, "field '\(field)' must be a string, not a \(other.typeName)")
            }
        }
        // A new container's name, refused when its bytes are not UTF-8 rather than stored with U+FFFD.
        func newName(_ call: LuaCall, _ position: Int32) throws -> String {
            if case .bytes = try call.value(position) { throw call.argumentError(position, "the name \(notUTF8)") }
            return try call.argument(position, as: String.self)
        }
        func id(_ call: LuaCall, _ position: Int32) throws -> String {
            try call.argument(position, as: String.self)
        }
        func push(_ call: LuaCall, _ view: some Encodable) throws -> Int32 {
            call.push(try Self.luaValue(view))
            return 1
        }

        // A damaged record sets its container apart (the second result) rather than failing the list.
        module.function("list") { call in
            let listing = try operations.list()
            call.push(try Self.luaValue(listing.containers))
            call.push(try Self.luaValue(listing.damaged))
            return 2
        }
        module.function("active") { call in try push(call, try operations.active()) }
        module.function("get") { call in
            guard let found = try operations.get(try id(call, 1)) else {
                call.push(LuaValue.nil)
                return 1
            }
            return try push(call, found)
        }
        module.function("create") { call in
            let name = try newName(call, 1)
            let description = try optionalText(call, try options(call, 2), "description", position: 2)
            return try push(call, try operations.create(name: name, description: description))
        }
        module.function("activate") { call in try push(call, try operations.activate(try id(call, 1)).container) }
        module.function("delete") { call in
            _ = try operations.delete(try id(call, 1))
            return 0
        }
        module.function("clean") { call in
            _ = try operations.clean(try id(call, 1))
            return 0
        }
        module.function("clone") { call in
            let source = try id(call, 1)
            let name = try newName(call, 2)
            let description = try optionalText(call, try options(call, 3), "description", position: 3)
            return try push(call, try operations.clone(source, name: name, description: description))
        }
        module.function("update") { call in
            let target = try id(call, 1)
            let changes = try call.table(2)
            let name = try optionalText(call, changes, "name", position: 2)
            let description = try optionalText(call, changes, "description", position: 2)
            return try push(call, try operations.update(target, name: name, description: description))
        }
        #if Sharing
        module.function("export") { [unowned host] call in
            let source = try id(call, 1)
            let path = try call.argument(2, as: String.self)
            let destination = try host.permissionGate.check(.write, path, by: "container.export")
            let manifest = try operations.export(source, to: destination)
            var result = LuaTable()
            result["path"] = .string(path)
            result["entries"] = .integer(manifest.entries.count)
            call.push(LuaValue.table(result))
            return 1
        }
        module.function("import") { [unowned host] call in
            let path = try call.argument(1, as: String.self)
            let archive = try host.permissionGate.check(.read, path, by: "container.import")
            let given = try options(call, 2)
            let name = try optionalText(call, given, "name", position: 2)
            var limits = ArchiveLimits.standard
            for (field, apply) in [("max_size", { limits.maxSize = Int64($0) }), ("max_files", { limits.maxFiles = $0 })] as [(String, (Int) -> Void)] {
                switch given[field] {
                case .nil: continue
                case .integer(let value) where value > 0: apply(value)
                case let other: throw call.argumentError(2, "field '\(field)' must be a positive integer, not \(other.typeName)")
                }
            }
            return try push(call, try operations.import(from: archive, name: name, limits: limits))
        }
        module.function("diff") { [unowned host] call in
            func operand(_ position: Int32) throws -> DiffOperand {
                let text = try call.argument(position, as: String.self)
                if let container = try? operations.resolve(text) { return .container(container) }
                // An archive: checked before anything about it is looked at, then opened as checked.
                let archive = try host.permissionGate.check(.read, text, by: "container.diff")
                if FileManager.default.fileExists(atPath: archive.path) { return .archive(archive) }
                throw call.argumentError(position, "'\(text)' is neither a container of this home nor an archive file")
            }
            let diff = try operations.diff(try operand(1), try operand(2))
            call.push(try JSONValue(diffOf: diff).luaValue)
            return 1
        }
        #else
        // There, saying why, so that a script written for a full build fails with its reason.
        for name in ["export", "import", "diff"] {
            module.function(name) { call in
                throw call.argumentError(
                    1, "container.\(name) is not in this build: the application was built without EnvScript's Sharing trait (container archives)")
            }
        }
        #endif
        module.function("reset") { _ in
            _ = try operations.reset()
            return 0
        }
        module.function("exclude") { call in
            var rules: [String] = []
            switch try call.value(1) {
            case .string(let rule): rules = [rule]
            case .table(let list) where list.fields.isEmpty:
                for (index, entry) in list.array.enumerated() {
                    guard let rule = entry.stringValue, !rule.isEmpty else {
                        throw call.argumentError(1, "entry \(index + 1) must be a non-empty path, not a \(entry.typeName)")
                    }
                    rules.append(rule)
                }
            case let other:
                throw call.argumentError(1, "array of paths expected, got \(other == .nil ? "no value" : other.typeName)")
            }
            try generation.set { $0.excludedFiles = rules }
            return 0
        }
        module.function("on_will_change") { [unowned host, unowned generation] call in
            let hook = LuaCallback(
                try call.function(1), lock: host.lock, timeLimit: generation.hookTimeLimit("container.on_will_change hook"))
            let handle = try generation.register(by: "container.on_will_change") {
                let token = containers.addWillChangeHook { to, from in
                    _ = try hook.call(try Self.hookArguments(to: to, from: from, activeUUID: from?.uuid))
                }
                return { _ = containers.removeHook(token) }
            }
            call.push(handle.luaValue)
            return 1
        }
        module.function("on_did_change") { [unowned host, unowned generation] call in
            let hook = LuaCallback(
                try call.function(1), lock: host.lock, timeLimit: generation.hookTimeLimit("container.on_did_change hook"))
            let logger = host.logger
            let handle = try generation.register(by: "container.on_did_change") {
                let token = containers.addDidChangeHook { to, from in
                    do {
                        _ = try hook.call(try Self.hookArguments(to: to, from: from, activeUUID: to.uuid))
                    } catch {
                        logger.error("a container.on_did_change hook failed: \(error)")
                    }
                }
                return { _ = containers.removeHook(token) }
            }
            call.push(handle.luaValue)
            return 1
        }
        return module
    }

    /// A view as Lua sees it: the table of the control API's JSON, made by the one encoder of views.
    static func luaValue(_ view: some Encodable) throws -> LuaValue {
        try JSONValueEncoder().encode(view).luaValue
    }

    /// The two arguments of a switch hook: the container switched to and the one left (nil when
    /// unknown), each marked active as the home stands when the hook runs.
    private static func hookArguments(to: Container, from: Container?, activeUUID: UUID?) throws -> [LuaValue] {
        [
            try luaValue(ContainerView(to, activeUUID: activeUUID)),
            try from.map { try luaValue(ContainerView($0, activeUUID: activeUUID)) } ?? .nil,
        ]
    }
}
