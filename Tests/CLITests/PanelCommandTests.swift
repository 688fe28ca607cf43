import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import TestSupport

/// `envscript ui`: prints an address with its token, serves the panel there, and stops cleanly on Ctrl-C.
@Suite(.timeLimit(.minutes(15))) struct PanelCommandTests {
    /// The `Open http://...` address `ui` prints, once it has printed it.
    @Test func servesThePanelOfAHomeAndStopsCleanlyOnInterrupt() async throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home")
        let process = try EnvScriptProcess.start(["ui", "--home", home.path, "--port", "0"], in: scratch.url)
        let address = try #require(try await process.printedPanelAddress(), "ui printed no address: \(process.standardError)")
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

    /// `envscript ui ARGUMENTS` started by `/bin/sh` after `setup` (a `umask`, a `ulimit`), with `PATH`
    /// led by `path` when given.
    private func startUI(
        _ arguments: [String], in scratch: Scratch, after setup: String, pathFirst path: String? = nil
    ) throws -> ChildProcess {
        var extra: [String: String] = [:]
        if let path { extra["PATH"] = path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") }
        return try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #"\#(setup); exec "$0" "$@""#, try EnvScriptProcess.binary().path, "ui"] + arguments,
            in: scratch.url, environment: EnvScriptProcess.environment(extra))
    }

    /// `--open` gives the browser a private page that leads to the address: `ps` shows every local user
    /// the browser's arguments, which must not hold the token.
    @Test func openGivesTheBrowserAPrivatePageInsteadOfTheToken() async throws {
        let scratch = try Scratch()
        let marks = scratch.url.path
        let stub = try scratch.write("bin/xdg-open", """
            #!/bin/sh
            printf '%s\\n' "$@" > "\(marks)/browser-arguments"
            page="${1#file://}"
            stat -c '%a' "$page" > "\(marks)/page-mode"
            stat -c '%a' "$(dirname "$page")" > "\(marks)/folder-mode"
            cat "$page" > "\(marks)/page-text.tmp" && mv "\(marks)/page-text.tmp" "\(marks)/page-text"
            """)
        #expect(chmod(stub, 0o755) == 0)
        let home = scratch.url.appendingPathComponent("home").path
        // umask 000: the modes must be set, not left to the umask.
        let process = try startUI(["--home", home, "--open"], in: scratch, after: "umask 000", pathFirst: scratch.url.appendingPathComponent("bin").path)
        let address = try #require(try await process.printedPanelAddress(), "ui printed no address: \(process.standardError)")
        let token = try #require(URLComponents(url: address, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)
        try await waitUntil("the stub browser ran") { FileManager.default.fileExists(atPath: marks + "/page-text") }

        let arguments = try String(contentsOfFile: marks + "/browser-arguments", encoding: .utf8)
        #expect(!arguments.contains(token), "the browser's arguments hold the token: \(arguments)")
        #expect(arguments.hasPrefix("file:///"), "\(arguments)")
        #expect(try String(contentsOfFile: marks + "/page-mode", encoding: .utf8) == "600\n")
        #expect(try String(contentsOfFile: marks + "/folder-mode", encoding: .utf8) == "700\n")
        let page = try String(contentsOfFile: marks + "/page-text", encoding: .utf8)
        #expect(page.contains(#"<meta http-equiv="refresh" content="0;url=\#(address.absoluteString)">"#), "\(page)")
        let pagePath = String(arguments.dropFirst("file://".count).prefix { $0 != "\n" })
        #expect(FileManager.default.fileExists(atPath: pagePath))

        process.send(SIGINT)
        let outcome = try await onAnotherThread { process.wait(seconds: 30) }
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: (pagePath as NSString).deletingLastPathComponent), "the page outlived the panel")
    }

    /// More connections than the process may open descriptors (`ulimit -n 64`): the panel holds no more
    /// than its cap of them (an eighth of the limit), closes the idle ones after `--idle-timeout`, and
    /// answers a real request meanwhile; the process lives on.
    @Test func moreIdleConnectionsThanDescriptorsNeitherKillTheUINorKeepItFromAnswering() async throws {
        let scratch = try Scratch()
        let home = scratch.url.appendingPathComponent("home").path
        let process = try startUI(["--home", home, "--idle-timeout", "1"], in: scratch, after: "ulimit -n 64")
        let address = try #require(try await process.printedPanelAddress(), "ui printed no address: \(process.standardError)")
        let token = try #require(URLComponents(url: address, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)
        let port = try #require(address.port)
        let socketsBefore = sockets(of: process.pid)

        let idle = try (0..<48).map { _ in try RawSocketConnection(port: port) }
        try await Task.sleep(for: .milliseconds(500))
        let held = sockets(of: process.pid) - socketsBefore
        // Its cap (8), and a few sockets of its own opened meanwhile (its control socket's clients); not 48.
        #expect(held <= 64 / 8 + 4, "the panel holds \(held) connections")

        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/containers")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(60))
        #expect(response.status.code == 200)
        try await client.shutdown()
        try await waitUntil("the panel closed every idle connection", timeout: .seconds(60)) { idle.allSatisfy(\.isClosedByPeer) }
        #expect(process.process.isRunning, "\(process.standardError)")

        process.send(SIGINT)
        let outcome = try await onAnotherThread { process.wait(seconds: 30) }
        #expect(outcome.status == 0, "\(outcome.standardError)")
    }

    /// How many sockets process `pid` has open.
    private func sockets(of pid: Int32) -> Int {
        let folder = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) ?? "").hasPrefix("socket:") }.count
    }

    @Test func listeningBeyondThisMachineIsSaidOutLoud() async throws {
        let scratch = try Scratch()
        let process = try EnvScriptProcess.start(
            ["ui", "--home", scratch.url.appendingPathComponent("home").path, "--bind", "0.0.0.0"], in: scratch.url)
        _ = try #require(try await process.printedPanelAddress(), "ui printed no address: \(process.standardError)")
        #expect(process.standardError.contains("warning: the panel listens on 0.0.0.0"))
        process.send(SIGTERM)
        let outcome = try await onAnotherThread { process.wait(seconds: 30) }
        #expect(outcome.status == 0)
    }

    @Test func anAllowedOriginThatIsNotOneIsAUsageError() throws {
        let scratch = try Scratch()
        let outcome = try scratch.run("ui", "--allow-origin", "http://localhost:5173/app")
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--allow-origin: 'http://localhost:5173/app' is not a web origin"), "\(outcome.standardError)")
    }
}
