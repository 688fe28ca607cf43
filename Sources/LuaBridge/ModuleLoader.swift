import CLua
import CLuaSupport
import Foundation

/// The host's half of `require`: stock Lua 5.4's `require` and `package` (opened by the sandbox,
/// `sandbox.c`) with two searchers of the host's after `package.preload`'s: host modules, then Lua
/// files under the script roots.
///
/// So a module is loaded once, its own value is what every `require` returns (with its metatable),
/// `require` returns the loader data second (`:preload:`, `:host:` or the file's path), and
/// `package.loaded` decides what counts as loaded, as in stock Lua.
///
/// Files are only ever loaded from inside the script roots and the library roots (``LuaOptions/libraryRoots``),
/// together "the roots" below. The file searcher tries the folder of the
/// Lua function that called `require` when it lies in a root (`?.lua`, `?/init.lua` there), then the
/// templates of `package.path` (set to the roots' `?.lua;?/init.lua`; a script may change it). A
/// candidate outside every root is not even looked at, and a file whose real path leads out of every
/// root (through a symbolic link) is refused. `package.searchpath` searches the same way. No C modules,
/// no `package.loadlib` or `cpath`: scripts cannot load native code, nor probe files outside the roots.
enum ModuleLoader {
    /// The loader data of a host module (stock Lua's preload searcher answers `:preload:`).
    static let hostLoaderData = ":host:"

    /// Appends the host's searchers to `package.searchers` and sets `package.path` from the roots.
    /// Called once, right after the sandbox opened the libraries (no script has run).
    static func install(in core: LuaStateCore) {
        let thread = core.mainThread
        guard pushPackageTable(thread) else { return }
        LuaStateCore.pushString("searchers", onto: thread)
        if lua_rawget(thread, -2) == LUA_TTABLE {
            var next = lua_Integer(lua_rawlen(thread, -1)) + 1
            for searcher in [LuaFunction("require", body: searchHostModules), LuaFunction("require", body: searchFiles)] {
                core.push(searcher, onto: thread)
                lua_rawseti(thread, -2, next)
                next += 1
            }
        }
        esl_pop(thread, 1)
        LuaStateCore.pushString("searchpath", onto: thread)
        core.push(LuaFunction("searchpath", body: searchPath), onto: thread)
        lua_rawset(thread, -3)
        esl_pop(thread, 1)
        setPath(for: core.loadableRoots, in: core)
        installFileLoading(in: core)
    }

    /// Without `io` opened (whose `loadfile` and `dofile` read any file), `loadfile` and `dofile` that
    /// read Lua files under the script roots as `require` does: a project's specs load their helpers
    /// with them (`dofile('spec/helper.lua')`).
    private static func installFileLoading(in core: LuaStateCore) {
        let thread = core.mainThread
        guard lua_getglobal(thread, "loadfile") == LUA_TNIL else {
            esl_pop(thread, 1)
            return
        }
        esl_pop(thread, 1)
        core.push(LuaFunction("loadfile", body: loadFile), onto: thread)
        lua_pushvalue(thread, -1)
        lua_setglobal(thread, "loadfile")
        esl_push_dofile_through(thread)
        lua_setglobal(thread, "dofile")
    }

    /// `loadfile(path [, mode [, env]])` as stock Lua's, for text chunks under the script roots: the
    /// chunk, or `nil` and why (`cannot open PATH: ...`), never an error for a missing file.
    private static func loadFile(_ call: LuaCall) throws -> Int32 {
        let thread = call.thread
        guard let path = try call.argument(1, as: String?.self) else {
            return try call.results(.nil, .string("cannot read standard input in the sandbox: give loadfile a file's path"))
        }
        let mode = try call.argument(2, as: String?.self) ?? "bt"
        let roots = RootSet(call.core.loadableRoots)
        guard !path.utf8.contains(0), roots.containsLexically(path) else {
            let folders = roots.listed.isEmpty ? "no folder" : roots.listed
            return try call.results(.nil, .string("cannot open \(path): scripts load code only from \(folders), as require does"))
        }
        let file: String
        switch roots.lookUp(path) {
        case .missing: return try call.results(.nil, .string("cannot open \(path): No such file or directory"))
        case .leadsOut: return try call.results(.nil, .string("cannot open \(path): it leads out of the folders scripts load code from (through a symbolic link)"))
        case .file(let found): file = found
        }
        let data: Data
        switch readTrusted(file) {
        case .data(let bytes): data = bytes
        case .refused(let problem):
            return try call.results(.nil, .string("cannot open \(path): \(problem); scripts load only files of yours (or root's) that others cannot change (chown, chmod o-w)"))
        case .unreadable:
            return try call.results(.nil, .string("cannot read \(path)"))
        }
        if data.first == 0x1B {
            return try call.results(.nil, .string("attempt to load a binary chunk (binary chunks are not allowed in the sandbox)"))
        }
        guard mode.contains("t") else {
            return try call.results(.nil, .string("attempt to load a text chunk (mode is '\(mode)')"))
        }
        let hasEnvironment = lua_gettop(thread) >= 3
        let status = data.withUnsafeBytes { esl_load_text(thread, $0.baseAddress, $0.count, "@" + path) }
        if status != LUA_OK {
            let error = call.core.error(status: status, on: thread)
            return try call.results(.nil, .string(error.message))
        }
        esl_coverage_note_file(thread, path)
        call.core.noteLoaded(file)
        if hasEnvironment {
            lua_pushvalue(thread, 3)
            if lua_setupvalue(thread, -2, 1) == nil { esl_pop(thread, 1) }
        }
        return 1
    }

    /// Sets `package.path` to the `?.lua;?/init.lua` templates of each root, in order, then those stock
    /// Lua starts with (`LUA_PATH` or its default, such as `/usr/share/lua/5.4/?.lua`): of these only the
    /// ones inside a root are looked at (a library root such as `/usr/share/lua`).
    static func setPath(for roots: [String], in core: LuaStateCore) {
        let thread = core.currentThread
        guard pushPackageTable(thread) else { return }
        var templates = roots.flatMap { root -> [String] in
            let base = root.hasSuffix("/") && root != "/" ? String(root.dropLast()) : root
            return ["\(base)/?.lua", "\(base)/?/init.lua"]
        }
        if lua_getfield(thread, ESL_REGISTRY_INDEX, ESL_SYSTEM_PATH_KEY) == LUA_TSTRING, let system = lua_tolstring(thread, -1, nil) {
            templates += String(cString: system).split(separator: ";").map(String.init).filter { !templates.contains($0) }
        }
        esl_pop(thread, 1)
        LuaStateCore.pushString("path", onto: thread)
        LuaStateCore.pushString(templates.joined(separator: ";"), onto: thread)
        lua_rawset(thread, -3)
        esl_pop(thread, 1)
    }

    /// Pushes the `package` table the sandbox opened (from the registry: whatever a script did to the
    /// global of that name) and returns true, or pushes nothing and returns false when there is none.
    private static func pushPackageTable(_ thread: OpaquePointer) -> Bool {
        LuaStateCore.pushString(LUA_LOADED_TABLE, onto: thread)
        guard lua_rawget(thread, ESL_REGISTRY_INDEX) == LUA_TTABLE else {
            esl_pop(thread, 1)
            return false
        }
        LuaStateCore.pushString(LUA_LOADLIBNAME, onto: thread)
        let found = lua_rawget(thread, -2) == LUA_TTABLE
        lua_rotate(thread, -2, -1)
        esl_pop(thread, found ? 1 : 2)
        return found
    }

    // MARK: The searchers

    /// `package.searchers[2]`: a module the host registered. Answers a loader that makes its table, or
    /// the line for `require`'s "not found" message.
    private static func searchHostModules(_ call: LuaCall) throws -> Int32 {
        let name: String = try call.argument(1)
        guard let module = call.core.modules[name] else {
            LuaStateCore.pushString("no host module '\(name)'", onto: call.thread)
            return 1
        }
        call.core.push(LuaFunction("require") { loader in
            try pushTable(of: module, core: loader.core, onto: loader.thread)
            return 1
        }, onto: call.thread)
        LuaStateCore.pushString(hostLoaderData, onto: call.thread)
        return 2
    }

    /// `package.searchers[3]`: a Lua file under the script roots. Answers the compiled chunk and the
    /// file's path, or the lines for `require`'s "not found" message.
    private static func searchFiles(_ call: LuaCall) throws -> Int32 {
        let name: String = try call.argument(1)
        let thread = call.thread
        let core = call.core
        let roots = RootSet(core.loadableRoots)
        let templates = callerTemplates(thread, roots: roots) + (try pathTemplates(thread))
        switch try search(name.replacingOccurrences(of: ".", with: "/"), templates: templates, roots: roots) {
        case .notFound(let tried):
            LuaStateCore.pushString(tried.joined(separator: "\n\t"), onto: thread)
            return 1
        case .leadsOut(let candidate):
            throw LuaScriptError(
                "module '\(name)': '\(candidate)' leads outside the script roots or to nothing (through a symbolic link); require loads only files under \(roots.listed)")
        case .found(let candidate, let file):
            let data: Data
            switch readTrusted(file) {
            case .data(let bytes): data = bytes
            case .refused(let problem):
                throw LuaScriptError(
                    "module '\(name)': '\(candidate)' is not loaded: \(problem); require runs only files of yours (or root's) that others cannot change (chown, chmod o-w)")
            case .unreadable:
                throw LuaScriptError("module '\(name)': cannot read '\(candidate)'")
            }
            let status = data.withUnsafeBytes { esl_load_text(thread, $0.baseAddress, $0.count, "@" + candidate) }
            if status != LUA_OK {
                let error = core.error(status: status, on: thread)
                throw LuaError(.runtime, message: "error loading module '\(name)' from file '\(candidate)':\n\t\(error.message)")
            }
            esl_coverage_note_file(thread, candidate)
            core.noteLoaded(file)
            LuaStateCore.pushString(candidate, onto: thread)
            return 2
        }
    }

    /// What reading the Lua file at a real path found.
    private enum TrustedRead {
        case data(Data)
        /// Not run, as a start-up script would not be (``FileTrust``), and why.
        case refused(String)
        case unreadable
    }

    /// The bytes of the Lua file at `path` (a real path, from ``RootSet/lookUp(_:)``) if it is trusted
    /// (``FileTrust``; a checkout's group-writable files are). One descriptor, opened without following
    /// a link, is both checked and read: a file swapped meanwhile in a shared folder cannot pass the
    /// check as one file and be read as another.
    private static func readTrusted(_ path: String) -> TrustedRead {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return .unreadable }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .unreadable }
        if let problem = FileTrust.problem(info, groupMayWrite: true) { return .refused(problem) }
        guard let data = try? handle.readToEnd() else { return .unreadable }
        return .data(data ?? Data())
    }

    /// `package.searchpath(name, path [, sep [, rep]])` as stock Lua's, within the script roots: the
    /// first template of `path` (`;`-separated, `?` standing for `name` with each `sep` made `rep`)
    /// naming a regular file, or `nil` and the lines of what was tried.
    private static func searchPath(_ call: LuaCall) throws -> Int32 {
        let name: String = try call.argument(1)
        let path: String = try call.argument(2)
        let separator = try call.argument(3, as: String?.self) ?? "."
        let replacement = try call.argument(4, as: String?.self) ?? "/"
        let roots = RootSet(call.core.loadableRoots)
        let replaced = separator.isEmpty ? name : name.replacingOccurrences(of: separator, with: replacement)
        switch try search(replaced, templates: try templates(of: path, keepingEmpty: true), roots: roots) {
        case .found(let candidate, _):
            return try call.results(.string(candidate))
        case .leadsOut(let candidate):
            return try call.results(.nil, .string("'\(candidate)' leads outside the script roots or to nothing (through a symbolic link)"))
        case .notFound(let tried):
            return try call.results(.nil, .string(tried.joined(separator: "\n\t")))
        }
    }

    /// What a search of templates found.
    private enum SearchResult {
        /// The candidate as written, and the resolved file to read.
        case found(String, file: String)
        /// A file whose real path lies outside every root.
        case leadsOut(String)
        /// The lines of what was tried, in stock Lua's words (`no file 'x'`).
        case notFound([String])
    }

    /// The most templates one search tries: the search runs in Swift, beyond the instruction budget.
    static let maximumTemplates = 1000

    /// The templates of a `;`-separated path, refused when there are more than ``maximumTemplates``.
    static func templates(of path: String, keepingEmpty: Bool) throws -> [String] {
        let count = path.utf8.reduce(1) { $1 == UInt8(ascii: ";") ? $0 + 1 : $0 }
        guard count <= maximumTemplates else {
            throw LuaScriptError("a search path of \(count) templates: at most \(maximumTemplates) are searched")
        }
        return path.split(separator: ";", omittingEmptySubsequences: !keepingEmpty).map(String.init)
    }

    /// The first template, `?` replaced by `name`, that names a regular file inside the roots.
    ///
    /// A candidate outside every root as written (or holding a zero byte, which the kernel would cut
    /// it at) is never looked at. One inside is looked up from its folder's real path, so a symbolic
    /// link followed by `..` cannot lead the lookup out; a folder that leads out answers as a missing
    /// one, and a file that is a link leading out (or nowhere) as such whether its target exists or
    /// not: nothing tells whether a file outside the roots exists.
    private static func search(_ name: String, templates: [String], roots: RootSet) throws -> SearchResult {
        var tried: [String] = []
        for template in templates {
            let marks = template.utf8.reduce(0) { $1 == UInt8(ascii: "?") ? $0 + 1 : $0 }
            guard template.utf8.count + marks * name.utf8.count <= Int(PATH_MAX) else {
                tried.append("no file '\(template)' with '?' as '\(name.prefix(40))...' (longer than a path can be)")
                continue
            }
            let candidate = template.replacingOccurrences(of: "?", with: name)
            guard !candidate.utf8.contains(0), roots.containsLexically(candidate) else {
                tried.append("no file '\(candidate)' (outside the script roots)")
                continue
            }
            switch roots.lookUp(candidate) {
            case .missing: tried.append("no file '\(candidate)'")
            case .leadsOut: return .leadsOut(candidate)
            case .file(let file): return .found(candidate, file: file)
            }
        }
        return .notFound(tried)
    }

    /// The templates beside the Lua function that called `require` (the first Lua function up the
    /// stack: `pcall(require, name)` counts as its caller's), when it is a file's chunk inside a root.
    private static func callerTemplates(_ thread: OpaquePointer, roots: RootSet) -> [String] {
        var record = lua_Debug()
        var level: Int32 = 1
        while lua_getstack(thread, level, &record) != 0 {
            level += 1
            guard lua_getinfo(thread, "S", &record) != 0, let what = record.what, String(cString: what) != "C" else { continue }
            guard let source = record.source, source.pointee == UInt8(ascii: "@") else { return [] }
            let path = String(cString: source + 1)
            let folder: String
            if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
                folder = slash == path.startIndex ? "" : String(path[..<slash])
            } else {
                folder = "."
            }
            guard roots.containsReally(folder.isEmpty ? "/" : folder) else { return [] }
            return ["\(folder)/?.lua", "\(folder)/?/init.lua"]
        }
        return []
    }

    /// The templates of `package.path`, read raw (no metamethod runs under a Swift frame).
    ///
    /// - Throws: as stock Lua, when `package.path` is not a string (or a number, which stock Lua reads
    ///   as one).
    private static func pathTemplates(_ thread: OpaquePointer) throws -> [String] {
        guard pushPackageTable(thread) else { return [] }
        defer { lua_settop(thread, lua_gettop(thread) - 2) }
        LuaStateCore.pushString("path", onto: thread)
        let type = lua_rawget(thread, -2)
        guard type == LUA_TSTRING || type == LUA_TNUMBER, let text = lua_tolstring(thread, -1, nil) else {
            throw LuaScriptError("'package.path' must be a string")
        }
        return try templates(of: String(cString: text), keepingEmpty: false)
    }


    // MARK: Host modules

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
}

/// The script roots `require` may load from, compared by path.
private struct RootSet {
    /// The roots as given, made absolute and normalised (no `.`, `..` or repeated slashes).
    let lexical: [String]
    /// The roots' real paths (symbolic links resolved); a root that does not exist has none.
    let real: [String]
    let given: [String]

    init(_ roots: [String]) {
        given = roots
        lexical = roots.map(Self.normalised)
        real = roots.compactMap(Self.realPath)
    }

    var listed: String { given.map { "'\($0)'" }.joined(separator: ", ") }

    /// Whether `path`, as written, lies in a root: a candidate that does not is never looked at.
    func containsLexically(_ path: String) -> Bool {
        let path = Self.normalised(path)
        return (lexical + real).contains { Self.contains(path, in: $0) }
    }

    /// What `path` (inside a root as written) names, looked up from its folder's real path.
    enum Found {
        case missing
        /// A symbolic link whose target lies outside every root, or does not exist.
        case leadsOut
        /// A regular file inside a root: its real path.
        case file(String)
    }

    func lookUp(_ path: String) -> Found {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !base.isEmpty, base != ".", base != "..", let realFolder = Self.realPath(folder),
              holds(real: realFolder)
        else { return .missing }
        let inFolder = (realFolder == "/" ? "" : realFolder) + "/" + base
        var info = stat()
        guard lstat(inFolder, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return .file(inFolder)
        case S_IFLNK:
            guard let target = Self.realPath(inFolder), holds(real: target) else { return .leadsOut }
            guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .missing }
            return .file(target)
        default:
            return .missing
        }
    }

    /// Whether the real path of the existing `path` lies in a root.
    func containsReally(_ path: String) -> Bool {
        Self.realPath(path).map(holds(real:)) ?? false
    }

    /// Whether `path`, a real path already, lies in a root.
    private func holds(real path: String) -> Bool {
        real.contains { Self.contains(path, in: $0) }
    }

    /// `path` made absolute against the current folder, with `.`, `..` and empty components removed.
    static func normalised(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` with every symbolic link, `.` and `..` resolved, absolute; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is `folder` or lies beneath it. Compared byte by byte, as the kernel tells
    /// folders apart (String equality is canonical equivalence).
    static func contains(_ path: String, in folder: String) -> Bool {
        let base = folder.utf8.last == UInt8(ascii: "/") ? folder : folder + "/"
        return path.utf8.elementsEqual(folder.utf8) || path.utf8.starts(with: base.utf8)
    }
}
