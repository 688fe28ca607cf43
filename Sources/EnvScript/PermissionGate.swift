import Foundation
import LuaBridge

/// A script asked for a file or a host its permissions do not grant.
package struct PermissionError: Error, CustomStringConvertible, Sendable {
    /// What was refused and which permission would grant it.
    package var description: String
}

/// Checks the file and network accesses of host functions against ``ScriptPermissions``. A refusal
/// happens before anything is opened, so its message never depends on a file it was not allowed to read.
struct PermissionGate: Sendable {
    let permissions: ScriptPermissions
    /// The project folders: where `require` looks.
    let projectFolders: [String]
    /// Where the relative paths scripts give start (``HostConfiguration/scriptPathBase``); nil for the
    /// current folder.
    var scriptPathBase: String?

    enum Access {
        case read, write

        var verb: String { self == .read ? "reading" : "writing" }
        var flag: String { self == .read ? "--allow-read" : "--allow-write" }
        var setting: String { self == .read ? "readableFolders" : "writableFolders" }
    }

    /// The file at `path` (relative to ``scriptPathBase``) when `function` may access it.
    ///
    /// - Throws: ``PermissionError`` naming the folder to grant.
    @discardableResult
    func check(_ access: Access, _ path: String, by function: String) throws -> URL {
        let file = Self.resolved(path, from: scriptPathBase)
        let granted = (access == .read ? permissions.readableFolders : permissions.writableFolders).map(\.path)
        let folders = (projectFolders + granted).map { Self.resolved($0) }
        if folders.contains(where: { Self.isWithin(file.path, folder: $0.path) }) { return file }
        var project = [String]()
        for folder in projectFolders.map({ Self.resolved($0).path }) where !project.contains(folder) { project.append(folder) }
        let projectNames = "the project folder\(project.count == 1 ? "" : "s") (\(project.joined(separator: ", ")))"
        // Where a symbolic link leads is not said: the script could not have learnt it otherwise.
        let written = Self.absolute(path, from: scriptPathBase)
        if folders.contains(where: { Self.isWithin(written.path, folder: $0.path) }) {
            let allowed = ((project.isEmpty ? [] : [projectNames]) + (granted.isEmpty ? [] : ["the folders granted to it"]))
                .joined(separator: " and ")
            let instead = project.isEmpty ? "the file itself in a granted folder" : "the file itself in the project"
            throw PermissionError(description: """
                \(function): \(access.verb) '\(path)' is not allowed: a symbolic link on its way leads outside \(allowed); \
                grant the folder it leads to with \(access.flag) on the command line, or in \
                HostConfiguration.permissions.\(access.setting), or put \(instead)
                """)
        }
        let outside = project.isEmpty
            ? "the host runs no script file, so it has no project folder"
            : "it is outside \(projectNames)"
        throw PermissionError(description: """
            \(function): \(access.verb) '\(path)' is not allowed: \(outside); grant its folder with \(access.flag) \
            \(written.deletingLastPathComponent().path) on the command line, or in HostConfiguration.permissions.\(access.setting)
            """)
    }

    /// Refuses `url` unless its host (and port) is granted.
    func checkNetwork(_ url: URL, by function: String) throws {
        guard !allowsNetwork(url) else { return }
        let hostAndPort = Self.hostAndPort(url)
        throw PermissionError(description: """
            \(function): network access to \(hostAndPort) is not allowed; grant it with --allow-net \(hostAndPort) \
            on the command line, or in HostConfiguration.permissions.networkHosts
            """)
    }

    /// Whether `url`'s host and port are granted (redirects are checked with this too).
    func allowsNetwork(_ url: URL) -> Bool {
        guard let host = url.host else { return false }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return permissions.networkHosts.contains { entry in
            entry == "*" || (NetworkPermission(entry)?.allows(host: bareHost, port: port) ?? false)
        }
    }

    static func hostAndPort(_ url: URL) -> String {
        let host = url.host ?? ""
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(shownHost):\(port)"
    }

    /// `path` made absolute from `base` (an absolute folder; nil for the current folder), with `.`, `..`
    /// and the symbolic links of its existing part resolved: a link inside a granted folder cannot lead
    /// outside it.
    static func resolved(_ path: String, from base: String? = nil) -> URL {
        var existing = absolute(path, from: base)
        var rest: [String] = []
        while existing.path != "/", realPath(existing.path) == nil {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var result = URL(fileURLWithPath: realPath(existing.path) ?? existing.path)
        for component in rest { result.appendPathComponent(component) }
        return result.standardizedFileURL
    }

    /// `path` made absolute from `base` (nil for the current folder), `.` and `..` resolved as written,
    /// links not followed.
    private static func absolute(_ path: String, from base: String?) -> URL {
        let absolute = path.hasPrefix("/") ? path : (base ?? FileManager.default.currentDirectoryPath) + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Compared byte by byte: String equality is canonical equivalence, and `café` written with a
    /// combining accent is another folder than `café` on Linux.
    static func isWithin(_ path: String, folder: String) -> Bool {
        let base = folder.utf8.last == UInt8(ascii: "/") ? folder : folder + "/"
        return path.utf8.elementsEqual(folder.utf8) || path.utf8.starts(with: base.utf8)
    }
}
