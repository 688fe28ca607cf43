import CLua
import CLuaSupport
import Foundation

/// `require` in the sandbox: host modules first, then `NAME.lua` / `NAME/init.lua` beside the script
/// that calls `require`, then under the script roots.
///
/// Files are only ever loaded from inside the script roots: the folder of the calling script counts
/// only when it lies in one (its chunk name says where it is, whatever the current folder), and a file
/// whose real path leads out of every root (through a symbolic link) is refused. Module names are dotted
/// identifiers, so `..` cannot be written. No C modules, no `package.path`: scripts cannot load native code.
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
        } else if let path = try findFile(name, roots: searchFolders(of: thread, roots: core.scriptRoots)) {
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
            tried += candidates(name, roots: searchFolders(of: thread, roots: core.scriptRoots)).map { "no file '\($0)'" }
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

    /// The folders `require` searches, in order: the folder of the Lua function that called it (from
    /// its chunk name, `@path/to/script.lua`) when that folder lies inside a script root, then the roots.
    static func searchFolders(of thread: OpaquePointer, roots: [String]) -> [String] {
        guard let caller = callerFolder(thread),
              let real = realPath(caller), roots.contains(where: { root in realPath(root).map { contains(real, in: $0) } ?? false })
        else { return roots }
        return [caller] + roots.filter { $0 != caller }
    }

    /// The folder of the script whose code called `require` (level 1 of the stack), or nil when the
    /// caller is not a file's chunk (a C function such as `pcall`, a chunk loaded from a string).
    private static func callerFolder(_ thread: OpaquePointer) -> String? {
        var record = lua_Debug()
        guard lua_getstack(thread, 1, &record) != 0, lua_getinfo(thread, "S", &record) != 0,
              let source = record.source, source.pointee == UInt8(ascii: "@")
        else { return nil }
        let path = String(cString: source + 1)
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The first candidate file for `name` in `roots` that exists.
    ///
    /// - Throws: ``LuaScriptError`` when that file's real path lies outside every root (a symbolic
    ///   link leading out of them): it is refused, not skipped, so the script learns why.
    static func findFile(_ name: String, roots: [String]) throws -> String? {
        let found = candidates(name, roots: roots).first { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        guard let found else { return nil }
        let realRoots = roots.compactMap(realPath)
        guard let real = realPath(found), realRoots.contains(where: { contains(real, in: $0) }) else {
            throw LuaScriptError(
                "module '\(name)': '\(found)' leads outside the script roots (through a symbolic link); require loads only files under \(roots.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return found
    }

    /// `path` with every symbolic link, `.` and `..` resolved, absolute; nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the real path `path` is `folder` or lies beneath it (both resolved by ``realPath(_:)``).
    /// Compared byte by byte, as the kernel tells folders apart (String equality is canonical
    /// equivalence).
    private static func contains(_ path: String, in folder: String) -> Bool {
        let base = folder.utf8.last == UInt8(ascii: "/") ? folder : folder + "/"
        return path.utf8.elementsEqual(folder.utf8) || path.utf8.starts(with: base.utf8)
    }
}
