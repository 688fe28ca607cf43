import Containers

/// The rules an entry's path and a link's target must follow to be unpacked inside a container.
enum ArchivePath {
    /// The folders an entry may be under.
    static let roots: Set<String> = ["data", "hidden"]

    /// Why `path` cannot name an entry of a container, or nil when it can.
    static func problem(with path: String) -> String? {
        if path.isEmpty { return "an empty path" }
        if path.utf8.first == UInt8(ascii: "/") { return "an absolute path" }
        if path.utf8.contains(0) { return "a NUL byte in the path" }
        if path.utf8.count > 4096 { return "a path longer than 4096 bytes" }
        let components = PathComponents.of(path)
        if components.contains("..") { return "a '..' component, which would reach outside the container" }
        if components.contains(".") || components.contains("") { return "an empty or '.' component" }
        if components.contains(where: { $0.utf8.count > 255 }) { return "a name longer than 255 bytes" }
        guard components.count >= 2, roots.contains(components[0]) else {
            return "a path outside data/ and hidden/"
        }
        if AppContainer.isReservedName(components[1]) {
            return "'\(components[1])' is the name of envscript's own bookkeeping folder"
        }
        return nil
    }

    /// The folder holding `path`: everything before its last `/`.
    static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// Whether a symbolic link at `path` pointing to `target` stays inside its root (`data` or
    /// `hidden`) when followed: relative, never climbing above the root, never into the engine's
    /// bookkeeping at the top of the home, and never through another link (whose own target the text
    /// does not show). `isLink` says whether an archive path is a symbolic link of the archive.
    static func linkStaysInside(_ path: String, target: String, isLink: (String) -> Bool) -> Bool {
        guard !target.isEmpty, target.utf8.first != UInt8(ascii: "/"), !target.utf8.contains(0) else { return false }
        // Where the link is, then each step of its target, as archive paths.
        var resolved = Array(PathComponents.of(path, omittingEmpty: true).dropLast())
        let steps = PathComponents.of(target, omittingEmpty: true)
        for (index, step) in steps.enumerated() {
            switch step {
            case ".": continue
            case "..":
                resolved.removeLast()
                if resolved.isEmpty { return false }
            default:
                resolved.append(step)
                if resolved.count == 2, AppContainer.isReservedName(resolved[1]) { return false }
                // Only the last step may be a link: the kernel would follow one in the middle.
                if index < steps.count - 1, isLink(resolved.joined(separator: "/")) { return false }
            }
        }
        return true
    }
}
