import ArgumentParser
import LuaBridge

/// A library a script may be allowed beyond the sandbox, named on the command line (`--allow io`).
enum LibraryName: String, CaseIterable, ExpressibleByArgument {
    case io, os, debug

    /// The bridge's option for this library.
    var library: LuaLibraries {
        switch self {
        case .io: return .io
        case .os: return .os
        case .debug: return .debug
        }
    }
}
