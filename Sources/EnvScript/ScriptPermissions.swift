public import Foundation

/// What scripts may reach beyond the sandbox, in the style of Deno's permissions: files under the
/// project folders and nothing else unless granted, and no network unless granted.
///
/// The project folders are the folders `require` looks in (`LuaOptions.scriptRoots`): for
/// the command line, the current folder and the folders of the scripts it runs.
public struct ScriptPermissions: Sendable, Equatable {
    /// Folders, besides the project folders, whose files scripts may read (`tweak.json`,
    /// `tweak.cipher{key_file=}`, `container.import`, `container.diff` of an archive), and whose Lua
    /// files they may load as libraries (`require`, `loadfile`: `LuaOptions.libraryRoots`).
    public var readableFolders: [URL]
    /// Folders, besides the project folders, where scripts may write files (`container.export`).
    public var writableFolders: [URL]
    /// Hosts scripts may reach (`tweak.remote`): `example.com` (any port), `example.com:8443`,
    /// `127.0.0.1:8080`, `[::1]:8080`, or `*` for any host.
    public var networkHosts: [String]

    /// Permissions granting `readableFolders`, `writableFolders` and `networkHosts`; the defaults grant
    /// nothing beyond the project folders.
    public init(readableFolders: [URL] = [], writableFolders: [URL] = [], networkHosts: [String] = []) {
        self.readableFolders = readableFolders
        self.writableFolders = writableFolders
        self.networkHosts = networkHosts
    }

    /// Whether `entry` is a well-formed host permission; the problem otherwise.
    package static func problem(withHost entry: String) -> String? {
        if entry == "*" || NetworkPermission(entry) != nil { return nil }
        return "'\(entry)' is not HOST or HOST:PORT (such as api.example.com, 127.0.0.1:8080, [::1] or [::1]:8080), or * for any host"
    }
}

/// One granted host, with its port or any.
struct NetworkPermission: Equatable {
    var host: String
    var port: Int?

    init?(_ text: String) {
        var hostPart = Substring(text)
        var portPart: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portPart = rest.dropFirst()
            }
        } else if text.filter({ $0 == ":" }).count > 1 {
            return nil // a bare IPv6 address: its port would be ambiguous, so it must be bracketed
        } else if let colon = text.lastIndex(of: ":") {
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == "/" || $0 == "@" || $0.isWhitespace }) else { return nil }
        host = hostPart.lowercased()
        if let portPart {
            guard let port = Int(portPart), (1...65_535).contains(port) else { return nil }
            self.port = port
        }
    }

    func allows(host other: String, port otherPort: Int) -> Bool {
        host == other.lowercased() && (port == nil || port == otherPort)
    }
}
