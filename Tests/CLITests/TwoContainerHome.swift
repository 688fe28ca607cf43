import Foundation
import TestSupport
import Testing

/// A home with containers A and B, each holding its own version of the same six files, B active: a
/// test switches it (under a signal, an injected failure) and asks which container's files are live.
struct TwoContainerHome {
    /// The files each container holds, at the same paths with different contents.
    static let paths = (1...6).map { "file\($0)" }

    let scratch: Scratch
    let path: String

    init(_ scratch: Scratch) throws {
        self.scratch = scratch
        path = scratch.url.appendingPathComponent("home").path
        for name in ["A", "B"] {
            #expect(try run("container", "create", name).status == 0)
            #expect(try run("container", "activate", name).status == 0)
            for file in Self.paths { try "\(name) \(file)".write(toFile: path + "/" + file, atomically: true, encoding: .utf8) }
        }
    }

    /// The home's bookkeeping folder, with a trailing slash.
    var bookkeeping: String { path + "/.envscript-containers/" }

    /// Runs `envscript arguments... --home <home> --no-init`.
    func run(_ arguments: String...) throws -> EnvScriptProcess.Outcome {
        try scratch.run(arguments + ["--home", path, "--no-init"])
    }

    /// The container whose files are in the live home: "A", "B", or a description of a mixture.
    var live: String {
        let owners = Set(Self.paths.map { file in
            ((try? String(contentsOfFile: path + "/" + file, encoding: .utf8)) ?? "nothing").split(separator: " ")[0]
        })
        return owners.count == 1 ? String(owners.first!) : "a mixture of \(owners.sorted())"
    }

    /// The name of the active container, as `container info` reports it.
    func activeName() throws -> String? {
        let info = try run("container", "info", "--json")
        let record = try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any]
        return record?["name"] as? String
    }

    /// The journals left in the bookkeeping folder.
    var journals: [String] {
        ["journal.json", "journal.undo.json"].filter { FileManager.default.fileExists(atPath: bookkeeping + $0) }
    }
}
