import AsyncHTTPClient
import EnvScript
public import Foundation
import Hummingbird

/// The control panel of a host: a local web page with its containers, flags, state and scenarios, served over
/// HTTP with the host's control API under `/v1`, for as long as the server runs.
///
/// It listens on 127.0.0.1 unless told otherwise, and lets in only requests that carry its random
/// token: open ``url``, which holds it.
public final class PanelServer: Sendable {
    /// The address to open in a browser, token included.
    public let url: URL
    /// The port the panel listens on.
    public let port: Int
    /// The rules requests are checked against, with the token.
    package let access: PanelAccess
    private let server: BackgroundServer
    /// The event streams this panel serves, ended when it stops (the host's others stay open).
    private let eventStreams = EventStreamGroup()
    /// The scenario runs of this panel, when it offers scenarios.
    private let scenarioRuns: ScenarioRunBoard?
    /// For a panel that follows the home's application: the client its requests go through, shut
    /// down first when the panel stops so that forwarded event streams end at once.
    private let forwardingClient: HTTPClient?
    /// Ends the local event streams when the application shown comes or goes, so pages reconnect to it.
    private let targetWatch: Task<Void, Never>?

    /// Serves the panel of `host` on `port` of `bindHost` (0: any free port), within `limits`.
    ///
    /// - Throws: ``HostError/Code/panelListenerFailed`` when the port is taken or the address
    ///   cannot be bound.
    init(
        host: EnvScriptHost, bindHost: String, port requestedPort: Int, scenarios: PanelScenarios?,
        followsApplication: Bool, limits: ServerLimits, allowedOrigins: AllowedOrigins = .none
    ) throws {
        // The router needs the token and the token names the port: bind first, on a router whose guard
        // reads the access once it is known.
        let accessBox = AccessBox()
        let router = Router()
        router.add(middleware: accessBox)
        router.add(middleware: ControlErrorMiddleware())
        let target = followsApplication ? PanelTarget(home: host.configuration.home) : nil
        forwardingClient = target.map { _ in HTTPClient(eventLoopGroupProvider: .singleton) }
        if let target, let forwardingClient {
            router.add(middleware: PanelForwarding(target: target, client: forwardingClient))
        }
        PanelAssets.register(on: router)
        PanelInfoRoute.register(
            on: router, own: PanelInfoRoute.Own(home: host.configuration.home.path, appID: host.appID), target: target)
        ControlRoutes.register(on: router, host: host, eventStreams: eventStreams)
        scenarioRuns = scenarios.map(ScenarioRunBoard.init)
        if let scenarioRuns { PanelScenarioRoutes.register(on: router, board: scenarioRuns) }
        do {
            server = try BackgroundServer(
                router: router, address: .hostname(bindHost, port: requestedPort), serverName: "envscript-panel",
                limits: limits, showsToken: { [accessBox] in accessBox.carriesToken($0) })
        } catch {
            try? forwardingClient?.syncShutdown()
            throw HostError.panelListenerFailed(address: "\(bindHost):\(requestedPort)", reason: error.reason)
        }
        targetWatch = target.map { [eventStreams] target in Self.watch(target, endingStreamsOf: eventStreams) }
        port = server.port ?? requestedPort
        access = PanelAccess(bindHost: bindHost, port: port, allowedOrigins: allowedOrigins)
        accessBox.set(access)
        url = URL(string: "http://\(access.authority)/?token=\(access.token)")!
    }

    /// Stops serving: the panel's open event streams end, forwarded ones too, then the server. From
    /// synchronous code it returns once the server has stopped; from async code the server finishes
    /// stopping in the background (see `BackgroundServer/stop()`). Calling it again does nothing; a
    /// panel released without it stops as it goes.
    package func stop() {
        targetWatch?.cancel()
        try? forwardingClient?.syncShutdown()
        ControlRoutes.finishEventStreams(in: eventStreams)
        scenarioRuns?.finish()
        server.stop()
    }

    deinit { stop() }

    /// Looks every half second for the application the panel follows; when it changes, ends the
    /// panel's own event streams, so the pages reconnect — to the application that came, or to the
    /// home once it left (a forwarded stream ends by itself when its application goes).
    private static func watch(_ target: PanelTarget, endingStreamsOf streams: EventStreamGroup) -> Task<Void, Never> {
        Task.detached {
            var shown = target.application()?.id
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                let now = target.application()?.id
                if now != shown {
                    shown = now
                    ControlRoutes.finishEventStreams(in: streams)
                }
            }
        }
    }
}

