import EnvScript
import Foundation
import Hummingbird

/// The control panel of a host: a local web page with its containers, flags, state and scenarios, served over
/// HTTP with the host's control API under `/v1`, for as long as the server runs.
///
/// It listens on 127.0.0.1 unless told otherwise, and lets in only requests that carry its random
/// token (see ``PanelAccess``): open ``url``, which holds it.
public final class PanelServer: Sendable {
    /// The address to open in a browser, token included.
    public let url: URL
    /// The port the panel listens on.
    public let port: Int
    /// The rules requests are checked against, with the token.
    public let access: PanelAccess
    private let server: BackgroundServer
    /// The event streams this panel serves, ended when it stops (the host's others stay open).
    private let eventStreams = EventStreamGroup()
    /// The scenario runs of this panel, when it offers scenarios.
    private let scenarioRuns: ScenarioRunBoard?

    /// Serves the panel of `host` on `port` of `bindHost` (0: any free port).
    ///
    /// - Throws: ``PanelError/cannotListen(address:reason:)`` when the port is taken or the address
    ///   cannot be bound.
    init(host: EnvScriptHost, bindHost: String, port requestedPort: Int, scenarios: PanelScenarios?) throws {
        // The router needs the token and the token names the port: bind first, on a router whose guard
        // reads the access once it is known.
        let accessBox = AccessBox()
        let router = Router()
        router.add(middleware: accessBox)
        router.add(middleware: ControlErrorMiddleware())
        PanelAssets.register(on: router)
        ControlRoutes.register(on: router, host: host, eventStreams: eventStreams)
        scenarioRuns = scenarios.map(ScenarioRunBoard.init)
        if let scenarioRuns { PanelScenarioRoutes.register(on: router, board: scenarioRuns) }
        do {
            server = try BackgroundServer(
                router: router, address: .hostname(bindHost, port: requestedPort), serverName: "envscript-panel")
        } catch {
            throw PanelError.cannotListen(address: "\(bindHost):\(requestedPort)", reason: error.reason)
        }
        port = server.port ?? requestedPort
        access = PanelAccess(bindHost: bindHost, port: port)
        accessBox.set(access)
        url = URL(string: "http://\(access.authority)/?token=\(access.token)")!
    }

    /// Stops serving: the panel's open event streams end, then the server.
    public func stop() {
        ControlRoutes.finishEventStreams(in: eventStreams)
        scenarioRuns?.finishWatching()
        server.stop()
    }
}

/// Why a panel could not start.
public enum PanelError: Error, CustomStringConvertible {
    case cannotListen(address: String, reason: String)

    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "the panel cannot listen on \(address): \(reason)"
        }
    }
}
