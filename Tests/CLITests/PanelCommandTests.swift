import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import TestSupport

/// `envscript ui`: prints an address with its token, serves the panel there, and stops cleanly on Ctrl-C.
@Suite struct PanelCommandTests {
    /// The `Open http://...` address `ui` prints, once it has printed it.
    private func printedAddress(of process: ChildProcess) async throws -> URL? {
        for _ in 0..<3000 {
            if let line = process.standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("Open ") }) {
                return URL(string: String(line.dropFirst("Open ".count)))
            }
            if !process.process.isRunning { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test func servesThePanelOfAHomeAndStopsCleanlyOnInterrupt() async throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home")
        let process = try EnvScriptProcess.start(["ui", "--home", home.path, "--port", "0"], in: scratch.url)
        let address = try #require(try await printedAddress(of: process), "ui printed no address: \(process.standardError)")
        #expect(address.host == "127.0.0.1")
        let token = try #require(URLComponents(url: address, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)
        #expect(token.count == 64)
        #expect(hostRecords(of: home).count == 1, "attached to the home while it serves")

        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(address.port!)/v1/containers")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        #expect(response.status.code == 200)
        #expect(body.contains("\"DEFAULT\""))
        let refused = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(address.port!)/"), timeout: .seconds(30))
        #expect(refused.status.code == 403)
        try await client.shutdown()

        process.send(SIGINT)
        let outcome = try await onAnotherThread { process.wait(seconds: 30) }
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // Detached: its record (and socket) left the home with it.
        #expect(hostRecords(of: home).isEmpty)
    }

    /// The records of the hosts attached to `home` (`.envscript-containers/hosts/<id>.json`).
    private func hostRecords(of home: URL) -> [String] {
        let folder = home.appendingPathComponent(".envscript-containers/hosts").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }
    }

    @Test func aPortOutOfRangeIsAUsageError() throws {
        let scratch = try Scratch()
        let outcome = try EnvScriptProcess.run(["ui", "--home", scratch.url.appendingPathComponent("home").path, "--port", "70000"], in: scratch.url)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--port"))
    }

    @Test func aScenarioFolderThatIsNotOneIsAUsageError() throws {
        let scratch = try Scratch()
        try scratch.write("file.lua", "print(1)")
        for given in ["missing", "file.lua"] {
            let outcome = try EnvScriptProcess.run(
                ["ui", "--home", scratch.url.appendingPathComponent("home").path, "--scenarios", given], in: scratch.url)
            #expect(outcome.status == 2)
            #expect(outcome.standardError.contains("--scenarios: \(given) is not a folder"), "\(outcome.standardError)")
        }
        // Nothing was started: the home was never created.
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("home").path))
    }

    @Test func listeningBeyondThisMachineIsSaidOutLoud() async throws {
        let scratch = try Scratch()
        let process = try EnvScriptProcess.start(
            ["ui", "--home", scratch.url.appendingPathComponent("home").path, "--bind", "0.0.0.0"], in: scratch.url)
        _ = try #require(try await printedAddress(of: process), "ui printed no address: \(process.standardError)")
        #expect(process.standardError.contains("warning: the panel listens on 0.0.0.0"))
        process.send(SIGTERM)
        let outcome = try await onAnotherThread { process.wait(seconds: 30) }
        #expect(outcome.status == 0)
    }
}
