import ContainerSharing
import Containers
import Foundation

/// Export and import of a container of 10,000 files (100 MB) against Info-ZIP's `zip -r` and `unzip`
/// on the same data in the same run, and diff of two such containers with 100 changed files.
///
/// The data is half text-like (compressible, like preferences, JSON and databases) and half random
/// (like cached images and media, which deflate cannot shrink).
enum ArchiveBenchmark {
    static let folders = 100
    static let filesPerFolder = 100
    static let fileSize = 10_000
    static let changedFiles = 100

    static func run(_ report: BenchReport) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-archive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        benchProgress("archive", "writing \(folders * filesPerFolder) files of \(fileSize) bytes")
        try fill(home)
        let containers = try AppContainer(home: home)
        let live = try containers.activeContainer

        let ours = root.appendingPathComponent("ours.zip")
        let theirs = root.appendingPathComponent("theirs.zip")
        benchProgress("archive", "exporting, and zip -r")
        let export = try bestOfAlternating(
            3,
            measured: { try nanoseconds { try containers.export(container: live, to: ours) } },
            baseline: {
                try? FileManager.default.removeItem(at: theirs)
                return try nanoseconds { try tool("zip", ["-qr", theirs.path, ".", "-x", ".envscript-containers/*"], in: home) }
            })

        benchProgress("archive", "importing, and unzip")
        let unpacked = root.appendingPathComponent("unpacked")
        let importing = try bestOfAlternating(
            3,
            measured: {
                let time = try nanoseconds { try containers.importContainer(from: ours, name: "Imported") }
                try containers.delete(container: try containers.resolve("Imported"))
                return time
            },
            baseline: {
                try? FileManager.default.removeItem(at: unpacked)
                try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
                return try nanoseconds { try tool("unzip", ["-q", ours.path, "-d", unpacked.path], in: root) }
            })

        benchProgress("archive", "comparing two containers with \(changedFiles) changed files")
        let copy = try containers.clone(container: live, name: "Copy")
        for index in 0..<changedFiles {
            let file = home.appendingPathComponent("Documents/d\(index)/f\(index)")
            var data = try Data(contentsOf: file)
            data[data.count / 2] ^= 0xff
            try data.write(to: file)
        }
        var changed = 0
        let diff = try bestOf(3) {
            try nanoseconds { changed = try containers.diff(.container(copy), .container(live)).changed.count }
        }
        guard changed == changedFiles else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "diff found \(changed) changed files, not \(changedFiles)"])
        }

        report.figure("archive.export_10000_files", export.measured / 1e6, "ms")
        report.figure("archive.baseline_zip_r", export.baseline / 1e6, "ms")
        report.ratio("archive.export_vs_zip_r", export.measured, over: export.baseline, target: 1.5)
        report.figure("archive.import_10000_files", importing.measured / 1e6, "ms")
        report.figure("archive.baseline_unzip", importing.baseline / 1e6, "ms")
        report.ratio("archive.import_vs_unzip", importing.measured, over: importing.baseline, target: 1.5)
        report.figure("archive.diff_10000_files_100_changed", diff / 1e6, "ms")
        report.ratio("archive.diff_vs_one_second", diff, over: 1e9, target: 1)
    }

    /// `Documents/dNNN/fNNN`: even files random bytes, odd files text-like, all `fileSize` bytes.
    static func fill(_ home: URL) throws {
        var generator = SystemRandomNumberGenerator()
        let words = ["user", "session", "token", "true", "false", "items", "42", "checkout", "name", "{", "}", "\"", ":", ","]
        for folder in 0..<folders {
            let directory = home.appendingPathComponent("Documents/d\(folder)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in 0..<filesPerFolder {
                var data = Data(capacity: fileSize)
                if file.isMultiple(of: 2) {
                    for _ in 0..<fileSize / 8 { withUnsafeBytes(of: generator.next() as UInt64) { data.append(contentsOf: $0) } }
                } else {
                    while data.count < fileSize { data.append(contentsOf: (words.randomElement(using: &generator)! + " ").utf8) }
                }
                try data.prefix(fileSize).write(to: directory.appendingPathComponent("f\(file)"))
            }
        }
    }

    /// Runs an Info-ZIP tool to its end.
    private static func tool(_ name: String, _ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(name) exited with \(process.terminationStatus)"])
        }
    }
}
