import CLua
import CLuaSupport
import Foundation

/// `require` in the sandbox: host modules first, then `NAME.lua` / `NAME/init.lua` under the script roots.
/// No C modules, no `package.path`: scripts cannot load native code.
enum ModuleLoader {
    static func require(_ call: LuaCall) throws -> Int32 {
        let name: String = try call.argument(1)
        let thread = call.thread
        let core = call.core
        guard isValidName(name) else {
            throw call.argumentError(1, "module names are dotted identifiers such as 'config.flags', got '\(name)'")
        }
        // Already loaded? (registry._LOADED, the table Lua's own libraries use)
        luaL_getsubtable(thread, ESL_REGISTRY_INDEX, LUA_LOADED_TABLE)
        let loaded = lua_gettop(thread)
        LuaStateCore.pushString(name, onto: thread)
        lua_rawget(thread, loaded)
        if lua_type(thread, -1) != LUA_TNIL { return 1 }
        esl_pop(thread, 1)

        if let module = core.modules[name] {
            try pushTable(of: module, core: core, onto: thread)
        } else if let path = findFile(name, roots: core.scriptRoots) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw LuaScriptError("module '\(name)': cannot read '\(path)'")
            }
            let status = data.withUnsafeBytes { esl_load_text(thread, $0.baseAddress, $0.count, "@" + path) }
            if status != LUA_OK {
                let error = core.error(status: status, on: thread)
                throw LuaError(.runtime, message: "error loading module '\(name)' from '\(path)':\n\t\(error.message)")
            }
            let chunk = LuaFunctionRef(core: core, poppingFrom: thread)
            let result = try chunk.call([.string(name), .string(path)]).first ?? .nil
            try core.push(result == .nil ? .boolean(true) : result, onto: thread)
        } else {
            var tried = ["no host module '\(name)'"]
            tried += candidates(name, roots: core.scriptRoots).map { "no file '\($0)'" }
            throw LuaScriptError("module '\(name)' not found:\n\t" + tried.joined(separator: "\n\t"))
        }
        LuaStateCore.pushString(name, onto: thread)
        lua_pushvalue(thread, -2)
        lua_rawset(thread, loaded)
        return 1
    }

    /// Pushes the table of a host module. A member that cannot be pushed (a released reference) fails
    /// the whole `require`, naming the member, and leaves nothing on the stack.
    static func pushTable(of module: LuaModule, core: LuaStateCore, onto thread: OpaquePointer) throws(LuaError) {
        let top = lua_gettop(thread)
        lua_createtable(thread, 0, Int32(module.members.count))
        for (member, value) in module.members {
            LuaStateCore.pushString(member, onto: thread)
            switch value {
            case .function(let function): core.push(function, onto: thread)
            case .value(let value):
                do {
                    try core.push(value, onto: thread)
                } catch {
                    lua_settop(thread, top)
                    throw LuaError(error.kind, message: "module '\(module.name)': member '\(member)' cannot be made: \(error.message)")
                }
            }
            lua_rawset(thread, -3)
        }
    }

    static func isValidName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }
    }

    static func candidates(_ name: String, roots: [String]) -> [String] {
        let relative = name.replacingOccurrences(of: ".", with: "/")
        return roots.flatMap { root in
            let base = root.hasSuffix("/") ? String(root.dropLast()) : root
            return ["\(base)/\(relative).lua", "\(base)/\(relative)/init.lua"]
        }
    }

    static func findFile(_ name: String, roots: [String]) -> String? {
        candidates(name, roots: roots).first { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
