import Foundation

// scripts/bench: release-build benchmarks. Arguments name groups to run; none runs them all.
// `--embedding-child MODE HOME` makes this program one of the embedding group's children instead.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == EmbeddingBenchmark.childArgument {
    EmbeddingBenchmark.childMain(mode: CommandLine.arguments[2], home: CommandLine.arguments[3])
}

let groups: [(name: String, run: (BenchReport) throws -> Void)] = [
    ("bridge", BridgeBenchmark.run),
    ("patterns", PatternBenchmark.run),
    ("tweaks", TweakBenchmark.run),
    ("containers", ContainerBenchmark.run),
    ("archive", ArchiveBenchmark.run),
    ("state", StateBenchmark.run),
    ("reload", ReloadBenchmark.run),
    ("hosts", AttachedHostsBenchmark.run),
    ("embedding", EmbeddingBenchmark.run),
    ("startup", StartupBenchmark.run),
    ("scenarios", ScenarioFileBenchmark.run),
    ("lua-heavy", LuaHeavyBenchmark.run),
    ("lua-vm", LuaVMBenchmark.run),
]

let requested = Set(CommandLine.arguments.dropFirst())
let unknown = requested.subtracting(groups.map(\.name))
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("unknown benchmark group(s): \(unknown.sorted().joined(separator: ", ")); known: \(groups.map(\.name).joined(separator: ", "))\n".utf8))
    exit(2)
}

let report = BenchReport()
for group in groups where requested.isEmpty || requested.contains(group.name) {
    do {
        try group.run(report)
    } catch {
        FileHandle.standardError.write(Data("benchmark \(group.name) failed: \(error)\n".utf8))
        exit(1)
    }
}
