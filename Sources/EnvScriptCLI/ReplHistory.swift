import Foundation

/// The REPL's history: `repl_history` in the home's tools folder (its bookkeeping, never switched),
/// readable by its owner only, since statements may hold secrets.
///
/// One entry per line, its line feeds written `\n`, its carriage returns `\r` and its backslashes `\\`. Each entry is appended
/// with one `write(2)` to a file opened with `O_APPEND`, so REPLs on one home at once add to it
/// without losing each other's entries.
struct ReplHistory {
    /// How many of the newest entries are loaded.
    static let loadedCount = 1000

    let file: URL

    init(toolsFolder: URL) {
        file = toolsFolder.appendingPathComponent("repl_history")
    }

    /// The newest ``loadedCount`` entries, oldest first; none when the file does not exist yet.
    func load() -> [String] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        return lines.suffix(Self.loadedCount).map(Self.decoded)
    }

    /// Appends `entry`, creating the folder (0700) and the file (0600) on first use.
    func append(_ entry: String) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Not through a link, and private whoever made the file.
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
        defer { close(descriptor) }
        fchmod(descriptor, 0o600)
        let line = Array((Self.encoded(entry) + "\n").utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
    }

    static func encoded(_ entry: String) -> String {
        entry.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r")
    }

    static func decoded(_ line: Substring) -> String {
        var result = ""
        var escaped = false
        for character in line {
            if escaped {
                result.append(character == "n" ? "\n" : character == "r" ? "\r" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
