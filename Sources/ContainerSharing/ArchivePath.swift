/// The rules an entry's path and a link's target must follow to be unpacked inside a container.
enum ArchivePath {
    /// The folders an entry may be under.
    static let roots: Set<String> = ["data", "hidden"]

    /// Why `path` cannot name an entry of a container, or nil when it can.
    static func problem(with path: String) -> String? {
        if path.isEmpty { return "an empty path" }
        if path.hasPrefix("/") { return "an absolute path" }
        if path.utf8.contains(0) { return "a NUL byte in the path" }
        if path.utf8.count > 4096 { return "a path longer than 4096 bytes" }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains("..") { return "a '..' component, which would reach outside the container" }
        if components.contains(".") || components.contains("") { return "an empty or '.' component" }
        if components.contains(where: { $0.utf8.count > 255 }) { return "a name longer than 255 bytes" }
        guard components.count >= 2, roots.contains(String(components[0])) else {
            return "a path outside data/ and hidden/"
        }
        return nil
    }

    /// The folder holding `path`: everything before its last `/`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Whether a symbolic link at `path` pointing to `target` stays inside its root (`data` or
    /// `hidden`) when followed, judged on the text alone: relative, and never climbing above the root.
    static func linkStaysInside(_ path: String, target: String) -> Bool {
        guard !target.isEmpty, !target.hasPrefix("/"), !target.utf8.contains(0) else { return false }
        // The link's folder, below the root.
        var depth = path.split(separator: "/").count - 2
        for component in target.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                depth -= 1
                if depth < 0 { return false }
            default: depth += 1
            }
        }
        return true
    }
}
