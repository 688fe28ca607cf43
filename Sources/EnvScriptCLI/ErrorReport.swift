import ContainerSharing
import Containers
import EnvScript
import Foundation
import LuaBridge
import Scenarios

/// Turns the errors of the runtime into what `envscript` prints and the status it exits with.
enum ErrorReport {
    /// The failure for an error thrown while loading or running scripts.
    ///
    /// Lua errors print `file:line: message` and the traceback. Syntax errors, unreadable files and
    /// an unusable home are load errors (status 2), for `run` and `check` alike. Foundation's file
    /// errors say what went wrong in plain words (``FileErrorReason``), naming the file.
    static func failure(for error: any Error) -> CommandFailure {
        if let refusal = HomeWriteRefusal.failure(for: error) { return refusal }
        switch error {
        case let failure as CommandFailure:
            return failure
        case let lua as LuaError:
            let message = SandboxHint.annotate(lua.message)
            let text = lua.traceback.map { "\(message)\n\($0)" } ?? message
            return lua.kind == .syntax ? .usage(text) : .failure(text)
        case let host as HostError:
            if case .homeUnusable(let path, let reason) = host.reason {
                return .usage("cannot use '\(path)' as the home folder: \(reason); pass another folder with --home")
            }
            return .usage("\(host)")
        case let archive as ArchiveError:
            // A damaged or crafted archive, or an archive path that cannot be written: bad input. A write
            // that failed (no space left) is a failure.
            if archive.code == .writeFailed { return .failure("\(archive)") }
            return .usage("\(archive)")
        case let container as ContainerError:
            // A running host that did not answer: on the command line, more time is --host-timeout.
            if case .switchCancelled(let underlying as ParticipationError) = container.reason, underlying.code == .noAnswer {
                return .failure("\(container); --host-timeout SECONDS allows more time")
            }
            // A hook that refused on purpose said why, at its file and line: its traceback is noise.
            if case .switchCancelled(let hook as LuaError) = container.reason, isDeliberateRefusal(hook), !showsTracebacks {
                return .failure("\(ContainerError.switchCancelled(underlying: LuaError(hook.kind, message: hook.message)))")
            }
            // A name that breaks the rules is bad input, like any other wrong argument; a name taken
            // (exactly or but for case) is a refusal.
            if container.code == .invalidName { return .usage("\(container)") }
            return .failure("\(error)")
        default:
            return .failure(fileProblem(error) ?? "\(error)")
        }
    }

    /// Whether a Lua error is a script's deliberate refusal: a call of `error(...)`, whose traceback
    /// starts in Lua's own `error`, rather than a mistake of the script (an index of nil, say).
    static func isDeliberateRefusal(_ error: LuaError) -> Bool {
        guard error.kind == .runtime, let traceback = error.traceback else { return false }
        let frames = traceback.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return frames.first == "stack traceback:" && frames.dropFirst().first == "[C]: in function 'error'"
    }

    /// Whether tracebacks are asked for even where they are noise: `ENVSCRIPT_LOG_LEVEL` debug or trace.
    static var showsTracebacks: Bool {
        ["debug", "trace"].contains(EnvironmentVariable.value("ENVSCRIPT_LOG_LEVEL") ?? "")
    }

    /// `'path': reason` for an error of Foundation's file operations (`nil` for any other error).
    static func fileProblem(_ error: any Error) -> String? {
        let bridged = error as NSError
        guard bridged.domain == NSCocoaErrorDomain || bridged.domain == NSPOSIXErrorDomain else { return nil }
        let path = bridged.userInfo[NSFilePathErrorKey] as? String
            ?? (bridged.userInfo[NSURLErrorKey] as? URL)?.path
        return (path.map { "'\($0)': " } ?? "") + FileErrorReason.describe(error)
    }
}
