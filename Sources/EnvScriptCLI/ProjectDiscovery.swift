import Foundation

/// Finds the project a command works in, as git finds `.git`: the nearest folder, from a starting
/// folder upwards to the file system's root, that holds an `envscript.lua`. That file is the
/// start-up script, and its folder holds the default home (`.envscript/home`).
struct ProjectDiscovery {
    /// The start-up script's name.
    static let startupScriptName = "envscript.lua"

    /// The current folder, absolute and without a trailing slash.
    let currentFolder: String

    init(currentFolder: String = FileManager.default.currentDirectoryPath) {
        self.currentFolder = currentFolder
    }

    /// The nearest `envscript.lua` (a regular file, or a link to one) in `folder` or above it, shown
    /// as ``display(_:)`` does; nil when there is none up to the root.
    func startupScript(searchingUpFrom folder: String) -> String? {
        var candidate = absolute(folder)
        while true {
            let script = (candidate == "/" ? "" : candidate) + "/" + Self.startupScriptName
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: script, isDirectory: &isFolder), !isFolder.boolValue {
                return display(script)
            }
            guard candidate != "/" else { return nil }
            let parent = folderPart(of: candidate)
            candidate = parent.isEmpty ? "/" : parent
        }
    }

    /// The start-up script of a command given `files`: the nearest one above the first file's folder
    /// (scenarios belong to the project they sit in, wherever the command runs), else the nearest one
    /// above the current folder.
    func startupScript(forFiles files: [String]) -> String? {
        if let first = files.first {
            let folder = folderPart(of: first)
            if let found = startupScript(searchingUpFrom: folder.isEmpty ? "." : folder) { return found }
        }
        return startupScript(searchingUpFrom: ".")
    }

    /// `path` made absolute against the current folder, with `.`, `..` and repeated slashes resolved
    /// lexically (as the shell's `cd` does with a logical path).
    func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : currentFolder + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// An absolute path shown relative to the current folder when it lies inside it, else as it is.
    func display(_ path: String) -> String {
        let base = currentFolder == "/" ? "/" : currentFolder + "/"
        if path.utf8.starts(with: base.utf8) { return String(path.utf8.dropFirst(base.utf8.count))! }
        return path
    }
}
