public import EnvScript
public import Foundation

extension EnvScriptHost {
    /// Serves this host's control panel — its containers, flags and state in a browser — until the
    /// returned server is stopped. Off until called; meant for debug builds and QA tools.
    ///
    /// - Parameters:
    ///   - port: the TCP port; 0 picks a free one (read it from the result).
    ///   - bindHost: the address to listen on. Keep the default, 127.0.0.1, unless other machines must
    ///     reach the panel: anyone who can reach it and knows its token can change the app's data.
    ///   - scenarios: the scenario files the Scenarios page offers to run (none by default); see
    ///     ``servePanel(port:bindHost:scenarioFolder:)`` for a folder run with this host's configuration.
    ///   - followsApplication: false (the default) for an application's own panel, which shows this
    ///     host. True for a tool's panel (what `envscript ui` serves): while an application is attached
    ///     to the home (`HostConfiguration/role`), the page shows that application — its flags, its
    ///     state in memory, its providers — and changes go to it; otherwise it shows this host.
    ///   - limits: how many connections the panel serves at once and how long it waits for a request
    ///     (`ServerLimits`), so that nobody without the token can exhaust the app's descriptors.
    ///   - allowedOrigins: origins whose pages may call the OFREP routes with the token (a browser's
    ///     OpenFeature provider). None by default.
    /// - Returns: the running panel; open its ``PanelServer/url``, which carries the access token.
    public func servePanel(
        port: Int = 0, bindHost: String = "127.0.0.1", scenarios: PanelScenarios? = nil, followsApplication: Bool = false,
        limits: ServerLimits = ServerLimits(), allowedOrigins: AllowedOrigins = .none
    ) throws -> PanelServer {
        try PanelServer(
            host: self, bindHost: bindHost, port: port, scenarios: scenarios, followsApplication: followsApplication,
            limits: limits, allowedOrigins: allowedOrigins)
    }

    /// Serves the panel as ``servePanel(port:bindHost:scenarios:followsApplication:limits:allowedOrigins:)`` does, offering the scenario files of
    /// `scenarioFolder`, each run in a fresh host configured as this one over a temporary home.
    public func servePanel(port: Int = 0, bindHost: String = "127.0.0.1", scenarioFolder: URL) throws -> PanelServer {
        try servePanel(port: port, bindHost: bindHost, scenarios: PanelScenarios(folder: scenarioFolder, configuration: configuration))
    }
}
