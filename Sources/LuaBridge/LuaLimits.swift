import CLuaSupport

/// Standard libraries a host may open beyond the sandbox's base, table, string, math, utf8 and coroutine.
///
/// Every one of them widens what a script can reach, so none is ever opened silently.
public struct LuaLibraries: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The whole `io` library: files and processes through `io.popen`.
    public static let io = LuaLibraries(rawValue: UInt32(ESL_LIB_IO))
    /// The whole `os` library (the sandbox keeps only `clock`, `date`, `difftime`, `time`).
    public static let os = LuaLibraries(rawValue: UInt32(ESL_LIB_OS))
    /// The `debug` library. It lets scripts remove the instruction budget.
    public static let debug = LuaLibraries(rawValue: UInt32(ESL_LIB_DEBUG))

    /// The libraries by their command-line names.
    package static let byName: [String: LuaLibraries] = ["io": .io, "os": .os, "debug": .debug]
}

/// How a ``LuaState`` is set up.
public struct LuaOptions: Sendable {
    /// The most memory Lua may hold, in bytes; `nil` for no cap. Default: 256 MiB.
    public var memoryLimit: Int?
    /// The most VM instructions one call into Lua from Swift may run; `nil` for no budget.
    /// Default: 100 million.
    ///
    /// A budget is a stop that comes at the same place on every run, but it costs: while it is on, Lua's
    /// VM calls a hook and takes its slow path at every instruction, about twice the time of VM-bound
    /// code (``LuaState/withTimeLimit(seconds:reason:_:)`` costs nothing until its deadline passes). A
    /// state with no other limit keeps it by default; `envscript run` (whose every stage has a time
    /// limit) and `envscript repl` (where Ctrl-C stops a statement) leave it off unless asked for.
    package var instructionLimit: Int?
    /// Libraries opened beyond the sandbox.
    package var libraries: LuaLibraries
    /// Folders where `require` looks for `NAME.lua` and `NAME/init.lua` (after host modules).
    public var scriptRoots: [String]
    /// Folders `require` and `loadfile` also load Lua files from, after the script roots: libraries
    /// installed outside the project (`/usr/share/lua/5.4`), which a host grants as readable only.
    package var libraryRoots: [String] = []

    /// The defaults: the sandbox, 256 MiB, 100 million instructions per call, no script roots.
    public init(
        memoryLimit: Int? = 256 << 20,
        instructionLimit: Int? = 100_000_000,
        libraries: LuaLibraries = [],
        scriptRoots: [String] = []
    ) {
        self.memoryLimit = memoryLimit
        self.instructionLimit = instructionLimit
        self.libraries = libraries
        self.scriptRoots = scriptRoots
    }
}
