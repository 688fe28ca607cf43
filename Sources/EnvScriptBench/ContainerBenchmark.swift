import Containers
import Foundation

/// Switch time of a small and a large home, against moving file by file (AppContainer since 0.2.0)
/// and copying, on the same data in the same run.
enum ContainerBenchmark {
    static let smallFiles = 10
    static let largeFolders = 100
    static let filesPerFolder = 1_000
    /// 100,000 files of 10 KiB: about 1 GiB.
    static let fileSize = 10 * 1024
    static let switches = 10

    static func run(_ report: BenchReport) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-containers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let small = root.appendingPathComponent("small")
        let large = root.appendingPathComponent("large")
        try fill(small, folders: 1, filesPerFolder: smallFiles)
        progress("writing \(largeFolders * filesPerFolder) files of \(fileSize) bytes")
        try fill(large, folders: largeFolders, filesPerFolder: filesPerFolder)

        let smallSwitch = try switchTime(home: small)
        progress("switching the large home")
        let largeSwitch = try switchTime(home: large)
        progress("moving file by file")
        let fileByFile = try moveFileByFile(large, via: root.appendingPathComponent("moved"))
        progress("copying")
        let copy = try nanoseconds {
            try FileManager.default.copyItem(at: large.appendingPathComponent("Documents"), to: root.appendingPathComponent("copy"))
        }

        report.figure("containers.switch_10_files", smallSwitch / 1e6, "ms")
        report.figure("containers.switch_100000_files", largeSwitch / 1e6, "ms")
        report.ratio("containers.switch_100000_vs_10_files", largeSwitch, over: smallSwitch, target: 2)
        report.figure("containers.baseline_move_file_by_file_100000", fileByFile / 1e6, "ms")
        report.figure("containers.baseline_copy_100000", copy / 1e6, "ms")
        report.speedup("containers.speedup_vs_file_by_file", fileByFile / largeSwitch, target: 100)
        report.speedup("containers.speedup_vs_copy", copy / largeSwitch, target: 1)
    }

    /// A home with `Documents/dNNN/fNNNN` files and a few small top-level entries, like an app's home.
    static func fill(_ home: URL, folders: Int, filesPerFolder: Int) throws {
        let payload = Data(repeating: 0x61, count: fileSize)
        for folder in 0..<folders {
            let directory = home.appendingPathComponent("Documents/d\(folder)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in 0..<filesPerFolder {
                try payload.write(to: directory.appendingPathComponent("f\(file)"))
            }
        }
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Library/Preferences"), withIntermediateDirectories: true)
        try Data("<plist/>".utf8).write(to: home.appendingPathComponent("Library/Preferences/app.plist"))
    }

    /// The best time of a switch between the data-holding DEFAULT container and an empty one, both ways.
    static func switchTime(home: URL) throws -> Double {
        let containers = try AppContainer(home: home)
        let other = try containers.createNewContainer(name: "Empty")
        let original = try containers.activeContainer
        var best = Double.infinity
        for _ in 0..<switches {
            best = min(best, try nanoseconds { try containers.activate(container: other) })
            best = min(best, try nanoseconds { try containers.activate(container: original) })
        }
        return best
    }

    /// Moves every file of the home one by one into `destination` and back, as AppContainer 0.2.0 does;
    /// returns the time of one way.
    static func moveFileByFile(_ home: URL, via destination: URL) throws -> Double {
        let documents = home.appendingPathComponent("Documents")
        let files = try FileManager.default.subpathsOfDirectory(atPath: documents.path)
        func move(from source: URL, to target: URL) throws {
            for path in files {
                let from = source.appendingPathComponent(path)
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: from.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                let to = target.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard rename(from.path, to.path) == 0 else { throw BenchFailure("rename \(from.path) failed: errno \(errno)") }
            }
        }
        let there = try nanoseconds { try move(from: documents, to: destination) }
        try move(from: destination, to: documents)
        return there
    }

    static func progress(_ text: String) {
        benchProgress("containers", text)
    }
}
