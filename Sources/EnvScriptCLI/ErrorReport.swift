import ContainerSharing
import Containers
import EnvScript
import LuaBridge

/// Turns the errors of the runtime into what `envscript` prints and the status it exits with.
enum ErrorReport {
    /// The failure for an error thrown while loading or running scripts.
    ///
    /// Lua errors print `file:line: message` and the traceback. Syntax errors, unreadable files and
    /// an unusable home are load errors (status 2) unless `syntaxIsFailure` (for `check`).
    static func failure(for error: any Error, syntaxIsFailure: Bool = false) -> CommandFailure {
        switch error {
        case let failure as CommandFailure:
            return failure
        case let lua as LuaError:
            let text = lua.traceback.map { "\(lua.message)\n\($0)" } ?? lua.message
            if lua.kind == .syntax && !syntaxIsFailure { return .usage(text) }
            return .failure(text)
        case HostError.homeUnusable(let path, let reason):
            return .usage("cannot use '\(path)' as the home folder: \(reason); pass another folder with --home")
        case let host as HostError:
            return .usage("\(host)")
        case let archive as ArchiveError:
            // A damaged or crafted archive, or an archive path that cannot be written: bad input.
            return .usage("\(archive)")
        case let container as ContainerError:
            // A running host that did not answer: on the command line, more time is --timeout.
            if case .switchCancelled(let underlying as ParticipationError) = container, case .noAnswer = underlying {
                return .failure("\(container); --timeout SECONDS allows more time")
            }
            return .failure("\(error)")
        default:
            return .failure("\(error)")
        }
    }
}
