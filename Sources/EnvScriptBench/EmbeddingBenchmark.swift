import EnvScript
import Foundation

/// What embedding EnvScript costs an app, measured from outside as the app's users see it: from the start
/// of a process to its first flag read, with a host attached to its home (serving the control socket),
/// with a detached host, and for a plain program that reads the flag from a JSON file with Foundation —
/// the same binary in each case, so that loading it costs the same. Each child also reports how long
/// opening took and how many threads the process had more after it than before.
///
/// The children are this program, started with ``childArgument`` (see `main.swift`); they run in
/// alternation, many times, and each figure is the median.
enum EmbeddingBenchmark {
    static let runs = 60
    static let warmups = 5
    /// The first argument that makes this program an embedding child: `--embedding-child MODE HOME`.
    static let childArgument = "--embedding-child"
    static let modes = ["plain", "detached", "attached"]

    static func run(_ report: BenchReport) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-embedding-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try prepare(home: home)
        benchProgress("embedding", "\(runs) starts of each kind of process, in alternation")
        var samples = Array(repeating: [Sample](), count: modes.count)
        for round in 0..<(warmups + runs) {
            for (index, mode) in modes.enumerated() {
                let sample = try start(mode: mode, home: home)
                if round >= warmups { samples[index].append(sample) }
            }
        }
        func median(_ index: Int, _ field: (Sample) -> Double) -> Double {
            let sorted = samples[index].map(field).sorted()
            return sorted[sorted.count / 2]
        }
        let toFlag = modes.indices.map { median($0, \.startToFlag) }
        for (index, mode) in modes.enumerated() {
            report.figure("embedding.start_to_first_flag_\(mode)", toFlag[index] / 1e6, "ms")
        }
        report.ratio("embedding.start_to_first_flag_detached_vs_plain", toFlag[1], over: toFlag[0], target: 2)
        report.ratio("embedding.start_to_first_flag_attached_vs_plain", toFlag[2], over: toFlag[0], target: 2)
        report.atMost("embedding.open_detached", median(1, \.open) / 1e6, "ms", target: 5)
        report.atMost("embedding.open_attached", median(2, \.open) / 1e6, "ms", target: 5)
        report.atMost("embedding.threads_added_detached", median(1, \.threadsAdded), "threads", target: 2)
        report.atMost("embedding.threads_added_attached", median(2, \.threadsAdded), "threads", target: 2)
    }

    /// A home whose overrides give the flag a value, and the JSON file the plain program reads it from.
    private static func prepare(home: URL) throws {
        let host = try EnvScriptHost(configuration: HostConfiguration(home: home, attachesToHome: false))
        defer { host.close() }
        try host.tweaks.set("green", feature: "checkout", variable: "button_color")
        try Data(#"{"checkout": {"button_color": "green"}}"#.utf8).write(to: home.appendingPathComponent("flags.json"))
    }

    /// What one child reported.
    struct Sample {
        /// From just before starting the process to its first flag read, in nanoseconds.
        var startToFlag: Double
        /// How long the child took to open its host (or the JSON file).
        var open: Double
        /// Threads the child had more after opening than before.
        var threadsAdded: Double
    }

    private static func start(mode: String, home: URL) throws -> Sample {
        let child = ChildProgram(arguments: [CommandLine.arguments[0], childArgument, mode, home.path])
        let started = monotonicNanoseconds()
        let run = try child.run(in: home, errorLog: home.appendingPathComponent("child-errors.txt"))
        let fields = Dictionary(
            run.output.split(separator: " ").compactMap { field -> (String, String)? in
                let parts = field.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { $1 })
        guard run.status == 0, fields["value"] == "green", let flagReadAt = fields["flag_read_at"].flatMap(Double.init),
              let open = fields["open_ns"].flatMap(Double.init), let threads = fields["threads_added"].flatMap(Double.init)
        else {
            let errors = (try? String(contentsOf: home.appendingPathComponent("child-errors.txt"), encoding: .utf8)) ?? ""
            throw BenchFailure("the \(mode) child ended with status \(run.status), printing '\(run.output)' \(errors)")
        }
        return Sample(startToFlag: flagReadAt - started, open: open, threadsAdded: threads)
    }

    /// The child: opens what `mode` names at `home`, reads the flag, prints what it measured, and exits.
    static func childMain(mode: String, home: String) -> Never {
        let threadsBefore = threadCount()
        let opening = monotonicNanoseconds()
        var host: EnvScriptHost?
        let value: String
        do {
            switch mode {
            case "plain":
                let data = try Data(contentsOf: URL(fileURLWithPath: home).appendingPathComponent("flags.json"))
                let flags = try JSONSerialization.jsonObject(with: data) as? [String: [String: String]]
                value = flags?["checkout"]?["button_color"] ?? "none"
            case "detached", "attached":
                let opened = try EnvScriptHost(
                    configuration: HostConfiguration(home: URL(fileURLWithPath: home), attachesToHome: mode == "attached"))
                host = opened
                value = opened.tweaks.value("checkout", "button_color", default: "none")
            default:
                FileHandle.standardError.write(Data("unknown embedding child mode '\(mode)'; known: \(modes.joined(separator: ", "))\n".utf8))
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("embedding child (\(mode)): \(error)\n".utf8))
            exit(1)
        }
        let flagReadAt = monotonicNanoseconds()
        let threadsAdded = threadCount() - threadsBefore
        print("flag_read_at=\(Int(flagReadAt)) open_ns=\(Int(flagReadAt - opening)) threads_added=\(threadsAdded) value=\(value)")
        host?.close()
        exit(0)
    }

    /// CLOCK_MONOTONIC in nanoseconds: one clock for every process of the machine.
    private static func monotonicNanoseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
    }

    /// The threads of this process now.
    private static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
