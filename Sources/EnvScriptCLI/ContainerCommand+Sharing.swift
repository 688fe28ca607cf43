import ArgumentParser
import ContainerSharing
import Containers
import EnvScript
import Foundation

extension ContainerCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a container to a zip archive another machine can import.",
            discussion: """
                The archive holds the container's files, links and metadata, and a manifest with each \
                file's size, mode and SHA-256. Secure state stays sealed: the receiver needs the key file \
                to read it. An existing FILE is replaced once the new archive is complete.
                """)
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "The container: a name or UUID.") var container: String
        @Option(name: .shortAndLong, help: "The archive to write.") var output: String

        func run() throws {
            try runtime.withHost(readsOnly: true) { host in
                let manifest = try host.containerOperations.export(container, to: URL(fileURLWithPath: output))
                let files = manifest.entries.filter { $0.kind == .file }
                let bytes = files.reduce(Int64(0)) { $0 + ($1.hardLinkOf == nil ? $1.size ?? 0 : 0) }
                print("exported \(manifest.container.name) to \(output) (\(manifest.entries.count) entries, \(ByteCount.text(bytes)))")
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Create a container from an archive written by 'container export'.",
            discussion: """
                The new container gets a new UUID and is not activated. Every entry is checked before \
                anything is written (no absolute paths, '..', links leaving the container, devices or \
                FIFOs, duplicates; sizes and SHA-256 against the manifest), and the container appears \
                only once it is complete.
                """)
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "The archive to import.") var file: String
        @Option(help: "The new container's name (needed when the archive's is taken).") var name: String?
        @Option(help: "The most bytes of file content to unpack: a number with K, M or G (default 4G).")
        var maxSize: ByteCount = ByteCount(bytes: ArchiveLimits.standard.maxSize)
        @Option(help: "The most entries to unpack (default \(ArchiveLimits.standard.maxFiles)).")
        var maxFiles: Int = ArchiveLimits.standard.maxFiles

        func validate() throws {
            if maxFiles < 1 { throw ValidationError("--max-files must be at least 1.") }
        }

        func run() throws {
            try runtime.withHost { host in
                let limits = ArchiveLimits(maxSize: maxSize.bytes, maxFiles: maxFiles)
                do {
                    let imported = try host.containerOperations.import(from: URL(fileURLWithPath: file), name: name, limits: limits)
                    print("imported \(imported.name) (\(imported.uuid))")
                } catch let error as ContainerError where name == nil {
                    switch error.reason {
                    case .duplicateName(let taken):
                        throw CommandFailure.failure(
                            "the archive's container is named '\(taken)', and a container of that name already exists; import it under another name with --name")
                    case .nameDiffersOnlyByCase(let taken, let existing):
                        throw CommandFailure.failure(
                            "the archive's container is named '\(taken)', which differs only by case from the container '\(existing)'; import it under another name with --name")
                    default:
                        throw error
                    }
                }
            }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Show what differs between two containers, or a container and an archive.",
            discussion: """
                A and B are container names or UUIDs, or paths of archives written by 'container export' \
                (a name of the home wins over a file of the same name). Lists entries added, removed and \
                changed from A to B, then preference keys: tweak overrides as feature.variable, stored \
                state by key. The active container is read from the live home.
                """)
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "The first container or archive.") var first: String
        @Argument(help: "The second container or archive.") var second: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try runtime.withHost(readsOnly: true) { host in
                let diff = try host.containerOperations.diff(try operand(first, host), try operand(second, host))
                if json {
                    try printJSON(diff)
                } else {
                    print(DiffText.render(diff), terminator: "")
                }
            }
        }

        private func operand(_ text: String, _ host: EnvScriptHost) throws -> DiffOperand {
            if let operand = DiffOperand.named(text, in: host.containers) { return operand }
            throw CommandFailure.usage("'\(text)' is neither a container of this home nor an archive file; list the containers, or give the archive's path")
        }
    }
}

/// A size given on the command line: bytes, or a number with K, M or G (powers of 1024).
struct ByteCount: ExpressibleByArgument, Sendable {
    let bytes: Int64

    init(bytes: Int64) { self.bytes = bytes }

    init?(argument: String) {
        let text = argument.uppercased()
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var scale: Int64 = 1
        if let last = text.last, let unit = units[last] {
            digits = text.dropLast()
            scale = unit
        }
        guard let number = Int64(digits), number > 0 else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        bytes = product
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// `1.2 MB`, as `ls -h` would say it.
    static func text(_ bytes: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
    }
}

/// The text `container diff` prints.
enum DiffText {
    static func render(_ diff: ContainerDiff) -> String {
        if diff.isEmpty { return "no differences between \(diff.first) and \(diff.second)\n" }
        var lines = ["--- \(diff.first)", "+++ \(diff.second)"]
        func name(_ change: ContainerDiff.EntryChange) -> String {
            (change.isHidden ? "(hidden) " : "") + change.path + (change.kind == .directory ? "/" : "")
        }
        func size(_ bytes: Int64?) -> String { bytes.map(ByteCount.text) ?? "-" }
        if !(diff.added.isEmpty && diff.removed.isEmpty && diff.changed.isEmpty) {
            lines.append("entries:")
            lines += diff.added.map { "  + \(name($0))" + ($0.sizeAfter.map { " (\(ByteCount.text($0)))" } ?? "") }
            lines += diff.removed.map { "  - \(name($0))" + ($0.sizeBefore.map { " (\(ByteCount.text($0)))" } ?? "") }
            lines += diff.changed.map { "  ~ \(name($0)) (\(size($0.sizeBefore)) -> \(size($0.sizeAfter)))" }
        }
        let keys = diff.keysAdded.map { ("+", $0) } + diff.keysRemoved.map { ("-", $0) } + diff.keysChanged.map { ("~", $0) }
        if !keys.isEmpty {
            lines.append("preferences:")
            for (mark, key) in keys {
                let value: String
                switch mark {
                case "+": value = " = \(key.after?.description ?? "")"
                case "-": value = " = \(key.before?.description ?? "")"
                default: value = ": \(key.before?.description ?? "") -> \(key.after?.description ?? "")"
                }
                lines.append("  \(mark) \(key.kind.rawValue) \(key.name)\(value)  [\(key.file)]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
