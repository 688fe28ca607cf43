import Containers
import Foundation
import LuaBridge
import Locking

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

    /// What each search found, by absolute starting folder: a command searches more than once, and
    /// must find the same script each time (and warn once).
    private static let found = Locked<[String: String?]>([:])

    /// The nearest `envscript.lua` (a regular file, or a link to one) in `folder` or above it, shown
    /// as ``display(_:)`` does; nil when there is none up to the root.
    ///
    /// As git does with a repository it does not trust, a script that another user owns, or that others
    /// than its owner may change, is not run — `/tmp/envscript.lua` left by someone else would otherwise
    /// run with the user's rights and open the folder above to scripts: the search stops there with a
    /// warning on standard error.
    func startupScript(searchingUpFrom folder: String) -> String? {
        let start = absolute(folder)
        if let known = Self.found.withLock({ $0[start] }) { return known.map(display) }
        var candidate = start
        var result: String?
        while true {
            let script = (candidate == "/" ? "" : candidate) + "/" + Self.startupScriptName
            var info = stat()
            if stat(script, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
                if let problem = Self.trustProblem(info) {
                    Self.warnNotTrusted(script, named: script, problem)
                } else {
                    result = script
                }
                break
            }
            guard candidate != "/" else { break }
            let parent = folderPart(of: candidate)
            candidate = parent.isEmpty ? "/" : parent
        }
        Self.found.withLock { $0[start] = .some(result) }
        return result.map(display)
    }

    /// Says on standard error that `script` (`name` in the message) is not loaded because of `problem`,
    /// and what to do.
    private static func warnNotTrusted(_ script: String, named name: String, _ problem: String) {
        printError("warning: \(name) is not loaded: \(problem); change that (chown, chmod go-w) or pass --init \(script) to load it anyway")
    }

    /// Why a start-up script found by searching is not trusted, or nil when it is: it belongs to this
    /// user (or to root) and only its owner may write it (``FileTrust``).
    static func trustProblem(_ info: stat) -> String? {
        FileTrust.problem(info, groupMayWrite: false)
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

    /// What each look at a home's record found, by home path: as with ``found``, once per command.
    private static let recorded = Locked<[String: String?]>([:])

    /// The start-up script recorded for `home` (``AppContainer/recordedStartupScript(home:)``: the
    /// application, or the command that first claimed the home, wrote it), shown as ``display(_:)``
    /// does; nil when none is recorded, or when the one recorded is missing or not trusted, which is
    /// said on standard error.
    ///
    /// Loading a script named by the home is safe: the bookkeeping folder that holds the record is
    /// created 0700 and the record 0600, so only this user (or root) could have named it, as they could
    /// have passed it with `--init`; and the script itself is checked as a found one is
    /// (``trustProblem(_:)``). A record that cannot be read is left to the host, which reports it.
    func recordedStartupScript(home: URL) -> String? {
        let key = absolute(home.path)
        if let known = Self.recorded.withLock({ $0[key] }) { return known.map(display) }
        var result: String?
        if let script = try? AppContainer.recordedStartupScript(home: URL(fileURLWithPath: key)) {
            var info = stat()
            if stat(script, &info) != 0 || (info.st_mode & S_IFMT) == S_IFDIR {
                printError("warning: the start-up script \(script) recorded for this home is missing: loading none, so only the tweak overrides are seen and no hook runs; run envscript from the application's folder, or pass --init FILE")
            } else if let problem = Self.trustProblem(info) {
                Self.warnNotTrusted(script, named: "\(script), the start-up script recorded for this home,", problem)
            } else {
                result = script
            }
        }
        Self.recorded.withLock { $0[key] = .some(result) }
        return result.map(display)
    }

    /// Where a new or removed `envscript.lua` would change what ``startupScript(forFiles:)`` finds:
    /// that name in every folder a search for `files` looks in, up to the first holding one (or the
    /// root). Watch mode watches these, so a start-up script created while it runs is loaded.
    func searchedPaths(forFiles files: [String]) -> [String] {
        let firstFolder = files.first.map { folderPart(of: $0) }.map { $0.isEmpty ? "." : $0 }
        var paths: [String] = []
        for folder in [firstFolder, "."].compactMap({ $0 }) {
            var candidate = absolute(folder)
            while true {
                let script = (candidate == "/" ? "" : candidate) + "/" + Self.startupScriptName
                if !paths.contains(script) { paths.append(script) }
                // Where ``startupScript(searchingUpFrom:)`` stops: at a file of that name (a folder of
                // that name is passed over), trusted or not.
                var info = stat()
                if stat(script, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR { return paths }
                guard candidate != "/" else { break }
                let parent = folderPart(of: candidate)
                candidate = parent.isEmpty ? "/" : parent
            }
        }
        return paths
    }

    /// Forgets what the searches found, so that the next ones look again: for watch mode, between
    /// passes.
    static func forgetSearches() {
        found.withLock { $0.removeAll() }
        recorded.withLock { $0.removeAll() }
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
