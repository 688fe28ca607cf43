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

    init() throws {
        folder = try TemporaryFolder()
        host = try EnvScriptHost(configuration: HostConfiguration(home: folder.url.appendingPathComponent("home")))
        panel = try host.servePanel()
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

    /// The names of the home's containers, read from the engine rather than through the panel.
    func containerNames() throws -> [String] {
        try host.containers.containers.map(\.name)
    }
}

/// The `/v1/events` stream of a panel, read as text as it arrives.
final class PanelEventStream {
    private var chunks: HTTPClientResponse.Body.AsyncIterator
    private(set) var received = ""

    /// Opens the stream of the panel on `port` with `token`.
    init(client: HTTPClient, port: Int, token: String) async throws {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/events")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
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
