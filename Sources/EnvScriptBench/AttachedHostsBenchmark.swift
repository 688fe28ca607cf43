import AsyncHTTPClient
import Containers
import EnvScript
import Foundation
import NIOCore
import NIOHTTP1

/// What running hosts attached to a home cost the processes that change it: a switch with 0, 1 and 4
/// attached hosts (each prepares — flush, will-change hooks — and finishes — reload, did-change hooks —
/// over its control socket), and a `tweak set` through a host's socket against a direct one.
///
/// The attached hosts live in this process (each with its own Lua state, stores and socket), so the
/// figures include the whole HTTP exchange over Unix sockets but not the scheduling of other processes.
enum AttachedHostsBenchmark {
    static let switchPairs = 20
    static let tweakSets = 200

    static func run(_ report: BenchReport) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("envscript-bench-hosts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }

        var switchTimes: [Int: Double] = [:]
        for hostCount in [0, 1, 4] {
            switchTimes[hostCount] = try switchTime(home: root.appendingPathComponent("switch-\(hostCount)"), attachedHosts: hostCount)
        }
        report.figure("hosts.switch_0_attached", switchTimes[0]! / 1e6, "ms")
        report.figure("hosts.switch_1_attached", switchTimes[1]! / 1e6, "ms")
        report.figure("hosts.switch_4_attached", switchTimes[4]! / 1e6, "ms")
        report.ratio("hosts.switch_1_attached_vs_none", switchTimes[1]!, over: switchTimes[0]!, target: 3)
        report.ratio("hosts.switch_4_attached_vs_none", switchTimes[4]!, over: switchTimes[0]!, target: 12)

        let (direct, socket) = try tweakSetTimes(home: root.appendingPathComponent("tweaks"))
        report.figure("hosts.tweak_set_direct", direct / 1e3, "us")
        report.figure("hosts.tweak_set_through_socket", socket / 1e3, "us")
        // No target: one HTTP exchange over a Unix socket against a function call and a file write.
        report.figure("hosts.tweak_set_socket_over_direct", socket / direct, "x")
    }

    /// The best time of one switch (half of an A → B → A pair) made by an unattached host, with
    /// `attachedHosts` hosts taking part.
    static func switchTime(home: URL, attachedHosts: Int) throws -> Double {
        let asker = try EnvScriptHost(configuration: HostConfiguration(home: home, attachesToHome: false))
        defer { asker.close() }
        let hosts = try (0..<attachedHosts).map { _ in
            let host = try EnvScriptHost(configuration: HostConfiguration(home: home))
            // Each has what an app has: stored state to flush and reload, and hooks on both sides.
            try host.execute("""
                state.stored('session', 'guest') state.set('session', 'alice')
                container.on_will_change(function() end) container.on_did_change(function() end)
                """)
            return host
        }
        defer { for host in hosts { host.close() } }
        let b = try asker.containers.createNewContainer(name: "B")
        let a = try asker.containers.activeContainer
        var best = Double.infinity
        for _ in 0..<switchPairs {
            let pair = try nanoseconds {
                try asker.containers.activate(container: b)
                try asker.containers.activate(container: a)
            }
            best = min(best, pair / 2)
        }
        return best
    }

    /// The mean time of a `tweak set` made directly by a host, and through an attached host's socket.
    static func tweakSetTimes(home: URL) throws -> (direct: Double, socket: Double) {
        let host = try EnvScriptHost(configuration: HostConfiguration(home: home))
        defer { host.close() }
        let socketPath = try host.attachedHostRecord.map(\.socketPath) ?? { throw BenchFailure("the host did not attach") }()
        let measured = try bestOfAlternating(
            3,
            measured: {
                try nanoseconds {
                    for index in 0..<tweakSets {
                        try put(socketPath, "/v1/tweaks/socket/k\(index)", body: #"{"value": \#(index)}"#)
                    }
                } / Double(tweakSets)
            },
            baseline: {
                try nanoseconds {
                    for index in 0..<tweakSets {
                        try host.tweaks.set(.int(index), feature: "direct", variable: "k\(index)")
                    }
                } / Double(tweakSets)
            })
        return (measured.baseline, measured.measured)
    }

    private static func put(_ socketPath: String, _ path: String, body: String) throws {
        guard let url = URL(httpURLWithSocketPath: socketPath, uri: path) else { throw BenchFailure("bad socket path") }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        let request = try HTTPClient.Request(url: url, method: .PUT, headers: headers, body: .string(body))
        let response = try HTTPClient.shared.execute(request: request).wait()
        guard response.status == .ok else { throw BenchFailure("PUT \(path) answered \(response.status)") }
    }
}
