import Containers
import EnvScript
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What `envscript` says when the system refuses to write a home — to create it, or to change it (a
/// read-only file system, no write permission, no space left): both in the same words, and both a
/// refused operation (status 1), since the command was right and the home may still be read. A home
/// path that cannot name a folder at all (it goes through a file) stays bad input (status 2).
enum HomeWriteRefusal {
    /// The `errno` values of a refused write.
    private static let codes: Set<Int32> = [EROFS, EACCES, EPERM, ENOSPC, EDQUOT]

    /// The failure for `error` when it is the system refusing to write a home, else nil.
    static func failure(for error: any Error) -> CommandFailure? {
        switch error {
        case let host as HostError:
            guard case .homeUnusable(let path, let reason) = host.reason,
                  codes.contains(where: { FileErrorReason.describe(errno: $0) == reason }) else { return nil }
            return .failure("cannot create the home folder '\(path)': \(reason); make its parent folder writable, or pass another folder with --home")
        case let error as ContainerError:
            guard case .io(let path, let underlying as SystemCallError) = error.reason, codes.contains(underlying.code) else { return nil }
            let verb = ["mkdir": "create", "mkstemp": "create a file beside", "unlink": "remove", "rmdir": "remove"][underlying.call]
                ?? underlying.call
            return .failure("cannot \(verb) '\(path)': \(FileErrorReason.describe(errno: underlying.code)); commands that only read the home (list, info, export, diff, tweak get) still work; make it writable, or pass another folder with --home")
        default:
            return nil
        }
    }
}
