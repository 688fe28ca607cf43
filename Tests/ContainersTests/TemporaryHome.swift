import Foundation
import Testing
@testable import Containers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a test sees at one path of a tree.
enum TreeEntry: Equatable, CustomStringConvertible {
    case file(String)
    case directory
    case link(String)

    var description: String {
        switch self {
        case .file(let content): return "file(\(content.debugDescription))"
        case .directory: return "dir"
        case .link(let target): return "link(\(target))"
        }
    }
}

/// A fresh home folder under the system's temporary directory, with helpers to fill it and read it
/// back; removed by `remove()`.
struct TemporaryHome {
    let url: URL
    var path: String { url.path }

    /// - Parameter parent: the folder to make it in (a file system a test mounted); by default the
    ///   system's temporary directory.
    init(_ label: String = #function, in parent: URL = FileManager.default.temporaryDirectory) throws {
        let name = "ContainersTests-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
        url = parent.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes files (relative path → content), creating folders as needed.
    func write(_ files: [String: String]) throws {
        for (relative, content) in files {
            let file = url.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: file)
        }
    }

    func read(_ relative: String) throws -> String? {
        guard let data = FileManager.default.contents(atPath: path + "/" + relative) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    func exists(_ relative: String) -> Bool {
        var info = stat()
        return lstat(path + "/" + relative, &info) == 0
    }

    /// The live home's tree, without the engine's bookkeeping.
    func snapshot() throws -> [String: TreeEntry] {
        try Self.snapshot(of: path, skippingBookkeeping: true)
    }

    /// The tree under `folder`: every file, folder and link by relative path.
    static func snapshot(of folder: String, skippingBookkeeping: Bool = false) throws -> [String: TreeEntry] {
        var result: [String: TreeEntry] = [:]
        func walk(_ absolute: String, _ relative: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: absolute).sorted() {
                if relative.isEmpty, skippingBookkeeping, HomeLayout.isReserved(topLevelName: name) { continue }
                let childAbsolute = absolute + "/" + name
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(childAbsolute, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    result[childRelative] = .directory
                    try walk(childAbsolute, childRelative)
                case S_IFLNK:
                    result[childRelative] = .link(try FileManager.default.destinationOfSymbolicLink(atPath: childAbsolute))
                default:
                    let data = FileManager.default.contents(atPath: childAbsolute) ?? Data()
                    result[childRelative] = .file(String(decoding: data, as: UTF8.self))
                }
            }
        }
        if FileManager.default.fileExists(atPath: folder) { try walk(folder, "") }
        return result
    }

    /// The tree a set of files makes: each file and each folder on its path.
    static func tree(_ files: [String: String]) -> [String: TreeEntry] {
        var result: [String: TreeEntry] = [:]
        for (relative, content) in files {
            result[relative] = .file(content)
            var parts = relative.split(separator: "/").map(String.init)
            parts.removeLast()
            var folder = ""
            for part in parts {
                folder = folder.isEmpty ? part : folder + "/" + part
                result[folder] = .directory
            }
        }
        return result
    }

    /// The stash (`data` folder) of a container.
    func stash(of container: Container) throws -> [String: TreeEntry] {
        try Self.snapshot(of: HomeLayout(home: url).dataFolder(container.uuid))
    }
}

/// Records an issue listing what differs between two trees, if anything.
func expectTree(
    _ actual: [String: TreeEntry], _ expected: [String: TreeEntry], _ what: String = "tree",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual != expected else { return }
    var lines: [String] = []
    for path in Set(actual.keys).union(expected.keys).sorted() where actual[path] != expected[path] {
        lines.append("  \(path): expected \(expected[path].map(\.description) ?? "nothing"), found \(actual[path].map(\.description) ?? "nothing")")
    }
    let report = "\(what) differs:\n" + lines.joined(separator: "\n")
    Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
}
