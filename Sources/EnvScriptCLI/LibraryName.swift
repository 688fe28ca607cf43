import ArgumentParser
import LuaBridge

/// A library a script may be allowed beyond the sandbox, named on the command line (`--allow io`).
enum LibraryName: String, NamedArgumentValue {
    case io, os, debug

    /// The bridge's option for this library.
    var library: LuaLibraries {
        switch self {
        case .io: return .io
        case .os: return .os
        case .debug: return .debug
        }
    }

    /// What opening the library lets scripts do, for the warning printed when it is opened.
    var warning: String {
        switch self {
        case .io: return "opens Lua's whole io library: scripts may read and write any file and start programs (io.popen), whatever --allow-read and --allow-write say"
        case .os: return "opens Lua's whole os library: scripts may run commands (os.execute), remove and rename files, and read the environment"
        case .debug: return "opens Lua's debug library: scripts may remove the instruction budget and the time limits, and reach any value"
        }
    }
}
