import Foundation

/// A problem of the host's set-up, found before any Lua runs.
public enum HostError: Error, Equatable, CustomStringConvertible {
    /// A script file named by the user does not exist or cannot be read.
    case scriptNotReadable(path: String, reason: String)
    /// The home folder cannot be created or is not a folder.
    case homeUnusable(path: String, reason: String)

    public var description: String {
        switch self {
        case .scriptNotReadable(let path, let reason):
            return "cannot read script '\(path)': \(reason); check the path and its permissions"
        case .homeUnusable(let path, let reason):
            return "cannot use '\(path)' as the home folder: \(reason); pass another folder with --home"
        }
    }
}
