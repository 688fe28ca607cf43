import EnvScript

extension EnvScriptHost {
    /// Serves this host's control panel — its containers, flags and state in a browser — until the
    /// returned server is stopped. Off until called; meant for debug builds and QA tools.
    ///
    /// - Parameters:
    ///   - port: the TCP port; 0 picks a free one (read it from the result).
    ///   - bindHost: the address to listen on. Keep the default, 127.0.0.1, unless other machines must
    ///     reach the panel: anyone who can reach it and knows its token can change the app's data.
    /// - Returns: the running panel; open its ``PanelServer/url``, which carries the access token.
    public func servePanel(port: Int = 0, bindHost: String = "127.0.0.1") throws -> PanelServer {
        try PanelServer(host: self, bindHost: bindHost, port: port)
    }
}
