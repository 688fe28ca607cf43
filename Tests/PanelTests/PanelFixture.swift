import AsyncHTTPClient
import EnvScript
import EnvScriptPanel
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport

/// A host over a temporary home with its panel served on a free port of 127.0.0.1, and a client that
/// sends whatever headers a test needs (a forged Host or Origin included).
final class PanelFixture: @unchecked Sendable {
    let folder: TemporaryFolder
    let host: EnvScriptHost
    let panel: PanelServer
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    /// A panel without scenarios: an application's own, or — `followsApplication` — a tool's (as
    /// `envscript ui` serves it) that shows the application attached to the home while there is one;
    /// served within `limits`.
    init(followsApplication: Bool = false, limits: ServerLimits = ServerLimits(), allowedOrigins: AllowedOrigins = .none) throws {
        folder = try TemporaryFolder()
        var configuration = HostConfiguration(home: folder.url.appendingPathComponent("home"))
        if followsApplication { configuration.role = .tool }
        host = try EnvScriptHost(configuration: configuration)
        panel = try host.servePanel(followsApplication: followsApplication, limits: limits, allowedOrigins: allowedOrigins)
    }

    var home: URL { host.configuration.home }

    /// Runs `body` with a panel as ``init(followsApplication:limits:allowedOrigins:)`` serves it, closed
    /// afterwards whether `body` throws or not.
    static func with(
        limits: ServerLimits = ServerLimits(), allowedOrigins: AllowedOrigins = .none, _ body: (PanelFixture) async throws -> Void
    ) async throws {
        let fixture = try PanelFixture(limits: limits, allowedOrigins: allowedOrigins)
        do {
            try await body(fixture)
        } catch {
            await fixture.close()
            throw error
        }
        await fixture.close()
    }

    /// A panel offering the scenario files `scenarios` (relative path → Lua source), written under the
    /// folder's `scenarios/`; `makeHost`, when given, opens each run's host instead of the default.
    init(
        scenarios: [String: String],
        makeHost: (@Sendable (_ home: URL, _ files: [String]) throws -> EnvScriptHost)? = nil
    ) throws {
        folder = try TemporaryFolder()
        let scenarioFolder = folder.url.appendingPathComponent("scenarios", isDirectory: true)
        for (path, source) in scenarios {
            let file = scenarioFolder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.write(to: file, atomically: true, encoding: .utf8)
        }
        host = try EnvScriptHost(configuration: HostConfiguration(home: folder.url.appendingPathComponent("home")))
        if let makeHost {
            panel = try host.servePanel(scenarios: PanelScenarios(folder: scenarioFolder, makeHost: makeHost))
        } else {
            panel = try host.servePanel(scenarioFolder: scenarioFolder)
        }
    }

    /// Opens the event stream at `path` with the panel's token.
    func events(_ path: String = "/v1/events") async throws -> PanelEventStream {
        try await PanelEventStream(client: client, port: panel.port, token: panel.access.token, path: path)
    }

    /// A test that failed before ``close()`` still shuts its client down (which must happen before it goes).
    deinit {
        try? client.syncShutdown()
    }

    /// Stops the panel, the client and the host, and removes the home.
    func close() async {
        try? await client.shutdown()
        // Stopping waits for the server: never on a thread of the pool its tasks may need.
        let (panel, host, folder) = (panel, host, folder)
        _ = try? await onAnotherThread {
            panel.stop()
            host.close()
            folder.remove()
        }
    }

    var base: String { "http://127.0.0.1:\(panel.port)" }

    /// An answer: status, headers and body text.
    struct Answer: CustomStringConvertible {
        let status: Int
        let headers: HTTPHeaders
        let text: String
        var description: String { "\(status) \(text)" }
    }

    /// How a request proves it may come in.
    enum Credential {
        case none
        case bearer(String)
        case cookie(String)
    }

    /// Sends `method path` with `credential`, and the extra `headers` (which replace defaults of the
    /// same name, such as Host).
    func send(
        _ method: String, _ path: String, credential: Credential = .none, headers: [(String, String)] = [],
        body: String? = nil, to address: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: (address ?? base) + path)
        request.method = HTTPMethod(rawValue: method)
        switch credential {
        case .none: break
        case .bearer(let token): request.headers.add(name: "Authorization", value: "Bearer \(token)")
        case .cookie(let token): request.headers.add(name: "Cookie", value: "envscript_panel=\(token)")
        }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, text: String(buffer: bytes))
    }

    /// `GET path` with the token, its body parsed as a JSON object.
    func json(_ path: String) async throws -> [String: Any] {
        let answer = try await send("GET", path, credential: .bearer(panel.access.token))
        guard answer.status == 200, let object = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any] else {
            throw PanelTestError("GET \(path) answered \(answer)")
        }
        return object
    }

    /// The names of the home's containers, read from the engine rather than through the panel.
    func containerNames() throws -> [String] {
        try host.containers.containers.map(\.name)
    }
}

struct PanelTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An event stream of a panel (`/v1/events` unless told otherwise), read as text as it arrives.
final class PanelEventStream {
    private var chunks: HTTPClientResponse.Body.AsyncIterator
    private(set) var received = ""

    /// Opens the stream at `path` of the panel on `port` with `token`.
    init(client: HTTPClient, port: Int, token: String, path: String = "/v1/events") async throws {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        // A stream's connection is not reused: the server may close it once the stream ends, as a
        // browser's EventSource expects, and a later request must not be sent on it.
        request.headers.add(name: "Connection", value: "close")
        let response = try await client.execute(request, timeout: .seconds(60))
        chunks = response.body.makeAsyncIterator()
    }

    /// Reads until `text` has arrived (true) or the stream ends without it (false).
    func waitFor(_ text: String) async throws -> Bool {
        while !received.contains(text) {
            guard let chunk = try await chunks.next() else { return false }
            received += String(buffer: chunk)
        }
        return true
    }
}
